import type { HintsView } from '@parcours/domain/entities';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { RichText } from '../../../components/ui/RichText';
import { useTranslation } from '../../../lib/i18n';

interface HintsProps {
  hints: HintsView;
  /** Hints can still be asked for (not answered, not read-only). */
  canReveal: boolean;
  onReveal: () => void;
}

/**
 * docs/product.md §4 hints: the ones already unlocked, and a button for the next one saying how many are
 * left and, when it has one, its cost.
 */
export function Hints({ hints, canReveal, onReveal }: HintsProps) {
  const { t } = useTranslation();
  if (hints.messages.length === 0 && hints.remaining === 0) return null;
  return (
    <section className="hints" aria-labelledby="hints-title">
      <h2 id="hints-title" className="hints__title">
        <Icon name="lightbulb" /> {t('player.hints.title')}
      </h2>
      {hints.messages.length > 0 ? (
        <ol className="hints__list">
          {hints.messages.map((message, i) => (
            <li key={i} className="hints__item">
              <RichText html={message} />
            </li>
          ))}
        </ol>
      ) : null}
      {canReveal && hints.remaining > 0 ? (
        <Button variant="secondary" onClick={onReveal}>
          {t('player.hints.show', { count: hints.remaining })}
          {hints.nextMalus ? ` — ${t('player.hints.cost', { count: hints.nextMalus })}` : ''}
        </Button>
      ) : null}
    </section>
  );
}
