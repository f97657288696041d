import type { BlockView } from '@parcours/domain/entities';
import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { useTranslation } from '../../../lib/i18n';
import { nextLabelKey, showsDashboardButton } from '../player-model';

interface FooterProps {
  block: BlockView | null;
  canPrevious: boolean;
  busy: boolean;
  onPrevious?: () => void;
  onNext: () => void;
  onDashboard: () => void;
  /** What goes full screen: the player, not the whole app shell. */
  fullscreenTarget: RefObject<HTMLElement | null>;
}

const subscribeNever = () => () => undefined;
const fullscreenEnabled = () => Boolean(document.fullscreenEnabled);

function useFullscreen(target: RefObject<HTMLElement | null>) {
  const [active, setActive] = useState(false);
  useEffect(() => {
    const onChange = () => setActive(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  // The server cannot know: it draws the button (decision 0046), since every browser but an
  // iPhone's supports full screen, and the hydration keeps that first render, then drops the
  // button where it is not supported. Drawn without it, the footer grew under every learner's
  // eyes once the code ran (Lighthouse: a 0.014 layout shift on a drawn player page).
  const supported = useSyncExternalStore(subscribeNever, fullscreenEnabled, () => true);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void target.current?.requestFullscreen?.();
  };
  return { supported, active, toggle };
}

/**
 * docs/product.md §2 footer: previous/next, full screen, 'end module' on tincan blocks, the dashboard
 * button when the block asks for it (never on tincan). Busy keeps Next focusable but inert, so
 * focus does not fall off the page while the server answers.
 */
export function Footer({
  block,
  canPrevious,
  busy,
  onPrevious,
  onNext,
  onDashboard,
  fullscreenTarget,
}: FooterProps) {
  const { t } = useTranslation();
  const fullscreen = useFullscreen(fullscreenTarget);
  const hideNext = Boolean(block?.settings.template?.hideNextButton);
  return (
    <nav className="player-footer" aria-label={t('player.footer.label')}>
      <div className="player-footer__start">
        {onPrevious ? (
          <Button variant="secondary" onClick={onPrevious} disabled={!canPrevious || busy}>
            <span aria-hidden="true">←</span> {t('player.footer.previous')}
          </Button>
        ) : null}
        {showsDashboardButton(block) ? (
          <Button variant="ghost" onClick={onDashboard}>
            {t('common.backToDashboard')}
          </Button>
        ) : null}
      </div>
      <div className="player-footer__end">
        {fullscreen.supported ? (
          <Button variant="ghost" aria-pressed={fullscreen.active} onClick={fullscreen.toggle}>
            <Icon name={fullscreen.active ? 'fullscreen-exit' : 'fullscreen'} />{' '}
            {t('player.footer.fullscreen')}
          </Button>
        ) : null}
        {hideNext ? null : (
          <Button
            onClick={() => {
              if (!busy) onNext();
            }}
            aria-disabled={busy || undefined}
            aria-keyshortcuts={block?.type === 'tincan' ? undefined : 'Enter'}
            className="player-footer__next"
          >
            {t(nextLabelKey(block))} <span aria-hidden="true">→</span>
          </Button>
        )}
      </div>
    </nav>
  );
}
