import type { Ref } from 'react';
import { Button } from '../../../components/ui/Button';
import { useTranslation } from '../../../lib/i18n';

interface MultiblockChooserProps {
  title: string | null;
  choices: readonly { id: string; title: string | null; done?: boolean }[];
  onChoose: (id: string) => void;
  headingRef?: Ref<HTMLHeadingElement>;
  busy?: boolean;
}

/** docs/product.md §2: a multiblock first offers its blocks by numbered title. */
export function MultiblockChooser({
  title,
  choices,
  onChoose,
  headingRef,
  busy = false,
}: MultiblockChooserProps) {
  const { t } = useTranslation();
  return (
    <article className="block block--multiblock" aria-labelledby="multiblock-title">
      <h1 id="multiblock-title" ref={headingRef} tabIndex={-1} className="block__title">
        {title ?? t('player.node.chooseLabel')}
      </h1>
      <nav aria-label={t('player.node.chooseLabel')} className="multiblock">
        <p>{t('player.node.choose')}</p>
        <ol className="multiblock__list">
          {choices.map((choice, i) => (
            <li key={choice.id}>
              <Button
                variant="secondary"
                className="multiblock__choice"
                disabled={busy}
                onClick={() => onChoose(choice.id)}
              >
                {t('player.node.numbered', { number: i + 1, title: choice.title ?? '' })}
                {choice.done ? <span className="multiblock__done"> ✓ {t('player.node.done')}</span> : null}
              </Button>
            </li>
          ))}
        </ol>
      </nav>
    </article>
  );
}
