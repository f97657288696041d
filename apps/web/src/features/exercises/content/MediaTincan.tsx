import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { RowProps, TincanAction } from '../row-props';

/** SPEC §9: tincan frames are 600 px high. */
const TINCAN_HEIGHT = 600;

/** SPEC §5: a tincan address of invalid form yields nothing. */
export function tincanSrc(url: unknown): string | null {
  if (typeof url !== 'string' || !url) return null;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * An embedded learning module. It talks to the player with window messages: 'action:next' and
 * 'action:close' (SPEC §4); only messages from this frame count.
 */
export function TincanFrame({
  url,
  title,
  onAction,
}: {
  url: unknown;
  title: string;
  onAction?: (action: TincanAction) => void;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLIFrameElement>(null);
  const src = tincanSrc(url);

  useEffect(() => {
    if (!onAction) return undefined;
    const listener = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow) return;
      if (event.data === 'action:next') onAction('next');
      else if (event.data === 'action:close') onAction('close');
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [onAction]);

  if (!src) {
    console.warn('invalid tincan url', url);
    return null;
  }
  return (
    <iframe
      ref={frame}
      className="tincan-frame"
      src={src}
      title={title || t('exercises.tincan.title')}
      height={TINCAN_HEIGHT}
    />
  );
}

/** media-tincan: a learning module inside a page. */
export function MediaTincan({ row, onTincanAction }: RowProps) {
  const tincan = row.tincan as { url?: unknown } | undefined;
  return (
    <TincanFrame url={tincan?.url} title={typeof row.title === 'string' ? row.title : ''} onAction={onTincanAction} />
  );
}
