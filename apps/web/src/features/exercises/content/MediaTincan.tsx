import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { keyFromData, useTranslation } from '../../../lib/i18n';
import type { RowProps, TincanAction, TincanLaunch, TincanScore } from '../row-props';
import { useTincanLaunch, withLaunchParams } from './MediaTincan.launch';
import { useFullSeen } from './MediaTincan.seen';
import './MediaTincan.css';
import { logOnly } from '../../../lib/log-only';

/** docs/product.md §9: tincan frames are 600 px high (the tincan dialog is 870×630); MediaTincan.css too. */
const TINCAN_HEIGHT = 600;

/**
 * The least a module needs: its own scripts. No `allow-same-origin`, so the module runs in an
 * opaque origin and can never read the app's storage (the learner's token) or call the API as
 * the learner, even if a proxy drops the module's CSP `sandbox` header (decision 0009). Window
 * messages to the player still work.
 */
const TINCAN_SANDBOX = 'allow-scripts';

/** docs/product.md §5: a tincan address of invalid form yields nothing. */
export function tincanSrc(url: unknown): string | null {
  if (typeof url !== 'string' || !url) return null;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const SCORE_KEYS = ['scaled', 'raw', 'min', 'max'] as const;

/**
 * A score message of a learning module, `{ type: 'score', score: { scaled?, raw?, min?, max? } }`,
 * or null when it is anything else or a score the server would refuse (finite numbers only;
 * `scaled` in 0..1, or `raw` with `max`, min (default 0) < max and min ≤ raw ≤ max).
 */
export function tincanScoreOf(data: unknown): TincanScore | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, score } = data as { type?: unknown; score?: unknown };
  if (type !== 'score' || typeof score !== 'object' || score === null) return null;
  const parsed: TincanScore = {};
  for (const key of SCORE_KEYS) {
    const value = (score as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    parsed[key] = value;
  }
  const { scaled, raw, min = 0, max } = parsed;
  if (scaled !== undefined && (scaled < 0 || scaled > 1)) return null;
  const rawForm = raw !== undefined || parsed.min !== undefined || max !== undefined;
  if (rawForm && (raw === undefined || max === undefined || !(min < max) || raw < min || raw > max))
    return null;
  return scaled !== undefined || rawForm ? parsed : null;
}

/**
 * An embedded learning module. It talks to the player with window messages: 'action:next' and
 * 'action:close' (docs/product.md §4), and `{ type: 'score', score }` to report its score; only messages
 * from this frame count, anything malformed is ignored. With a launch (a tincan page being
 * played), it opens with the learning-record parameters of docs/product.md §7 and records its statements,
 * its score included, through the LRS. `data-full-seen` turns true once scrolled past 90 %.
 */
export function TincanFrame({
  url,
  title,
  onAction,
  onScore,
  launch,
}: {
  url: unknown;
  title: string;
  onAction?: (action: TincanAction) => void;
  onScore?: (score: TincanScore) => void;
  launch?: TincanLaunch | null;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLIFrameElement>(null);
  const src = tincanSrc(url);
  const launched = useTincanLaunch(src ? launch : null, src);
  const fullSeen = useFullSeen(frame, launched.status === 'ready');

  useEffect(() => {
    if (!onAction && !onScore) return undefined;
    const listener = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const data: unknown = event.data;
      if (data === 'action:next') onAction?.('next');
      else if (data === 'action:close') onAction?.('close');
      else if (onScore) {
        const score = tincanScoreOf(data);
        if (score) onScore(score);
      }
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [onAction, onScore]);

  if (!src) {
    logOnly('invalid learning module address', url);
    return null;
  }
  if (launched.status === 'pending') {
    return (
      <div className="tincan-frame tincan-frame--pending" role="status">
        {t('exercises.tincan.loading')}
      </div>
    );
  }
  const refusal = launched.status === 'ready' ? launched.refusal : undefined;
  return (
    <>
      {refusal ? <Alert tone="warning">{t(keyFromData(refusal))}</Alert> : null}
      <iframe
        ref={frame}
        className="tincan-frame"
        src={launched.params ? withLaunchParams(src, launched.params) : src}
        sandbox={TINCAN_SANDBOX}
        title={title || t('exercises.tincan.title')}
        height={TINCAN_HEIGHT}
        data-full-seen={fullSeen}
      />
    </>
  );
}

/**
 * media-tincan. A tincan block's module is the page itself, shown inline (rowIndex −1, see
 * BlockScreen); a module placed as a row among other content opens in the tincan dialog
 * (docs/product.md §2, 870×630), so it never squeezes the page around it.
 */
export function MediaTincan({ row, rowIndex, onTincanAction, onTincanScore, tincanLaunch }: RowProps) {
  const tincan = row.tincan as { url?: unknown } | undefined;
  const title = typeof row.title === 'string' ? row.title : '';
  if (rowIndex < 0) {
    return (
      <TincanFrame
        url={tincan?.url}
        title={title}
        onAction={onTincanAction}
        onScore={onTincanScore}
        launch={tincanLaunch}
      />
    );
  }
  return <TincanDialogRow url={tincan?.url} title={title} />;
}

function TincanDialogRow({ url, title }: { url: unknown; title: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!tincanSrc(url)) return null;
  const name = title || t('exercises.tincan.title');
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('exercises.tincan.open', { title: name })}</Button>
      <Dialog
        isOpen={open}
        title={name}
        className="tincan-dialog"
        onDismiss={() => setOpen(false)}
        actions={
          <Button data-autofocus onClick={() => setOpen(false)}>
            {t('exercises.tincan.close')}
          </Button>
        }
      >
        <TincanFrame url={url} title={name} onAction={() => setOpen(false)} />
      </Dialog>
    </>
  );
}
