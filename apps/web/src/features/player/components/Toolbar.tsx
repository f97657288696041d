import { Suspense, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { useTranslation } from '../../../lib/i18n';
import type { PageResource, ResourceFile } from '../api/get-page-resources';
import { formatClock } from '../format-clock';
import { usePlayerSlots } from '../player-slots';
import { ResourcesButton } from './Resources';

interface ToolbarProps {
  /** 0-based position and page count, when known. */
  position?: { index: number; count: number } | null;
  /** What the position counts, for screen readers (default: the pages of the lesson). */
  progressLabel?: string;
  /** Seconds spent on the page, shown by the lesson timer; null hides it. */
  seconds?: number | null;
  countdown?: ReactNode;
  resources: readonly PageResource[];
  /** Files attached to the page (node mode: ids only, named by their position). */
  files: readonly ResourceFile[];
  calculator: boolean;
}

/** docs/product.md §2 toolbar: progress, lesson timer, countdown, resources with their count, calculator. */
export function Toolbar({
  position,
  progressLabel,
  seconds,
  countdown,
  resources,
  files,
  calculator,
}: ToolbarProps) {
  const { t } = useTranslation();
  const { Calculator } = usePlayerSlots();
  const [calculatorOpen, setCalculatorOpen] = useState(false);
  return (
    <div className="player-toolbar">
      {position ? (
        <div className="player-toolbar__progress">
          <span>{t('player.toolbar.position', { index: position.index + 1, count: position.count })}</span>
          <ProgressBar
            value={(100 * (position.index + 1)) / Math.max(1, position.count)}
            label={progressLabel ?? t('player.toolbar.progressLabel')}
            valueText={t('player.toolbar.position', { index: position.index + 1, count: position.count })}
          />
        </div>
      ) : null}
      <div className="player-toolbar__tools">
        {seconds !== null && seconds !== undefined ? (
          <span className="player-toolbar__clock">
            <span className="sr-only">{t('player.toolbar.timeSpent')} </span>
            <Icon name="clock" /> {formatClock(seconds)}
          </span>
        ) : null}
        {countdown}
        <ResourcesButton resources={resources} files={files} />
        {calculator && Calculator ? (
          <Button
            variant="secondary"
            aria-pressed={calculatorOpen}
            onClick={() => setCalculatorOpen((o) => !o)}
          >
            <Icon name="calculator" /> {t('player.toolbar.calculator')}
          </Button>
        ) : null}
      </div>
      {calculatorOpen && Calculator ? (
        <Suspense fallback={null}>
          <Calculator onClose={() => setCalculatorOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
