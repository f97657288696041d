import { useEffect, useState } from 'react';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { getActiveLesson } from '../../../lib/storage';
import { useTenant } from '../../../lib/tenant';
import { PlayerPage } from './PlayerPage';

const idOf = (value: unknown): string | null =>
  typeof value === 'string' && value
    ? value
    : typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
      ? (value as { id: string }).id
      : null;

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url.includes('://') ? url : `https://${url}`).origin;
  } catch {
    return null;
  }
}

/**
 * SPEC §2 correction: the page and lesson come from the route or from a window message
 * {page, lesson} sent by the back office (our own origin or the tenant's back-office or app
 * host). Timers and pings are off: PlayerPage runs in correction mode.
 */
export function CorrectionPage({ lessonId, pageId }: { lessonId: string | null; pageId: string | null }) {
  const { t } = useTranslation();
  const tenant = useTenant();
  const [fromMessage, setFromMessage] = useState<{ lesson: string | null; page: string } | null>(null);
  const hosts = tenant?.attributes.hosts;
  const trusted = [window.location.origin, originOf(hosts?.backoffice), originOf(hosts?.app)].filter(Boolean);
  const trustedKey = trusted.join(' ');

  useEffect(() => {
    const allowed = new Set(trustedKey.split(' '));
    const onMessage = (event: MessageEvent) => {
      if (!allowed.has(event.origin)) return;
      const data = event.data as { page?: unknown; lesson?: unknown } | null;
      const page = idOf(data?.page);
      if (page) setFromMessage({ page, lesson: idOf(data?.lesson) });
    };
    window.addEventListener('message', onMessage);
    // The sender waits for this before posting (as the preview does).
    const opener = (window.opener as Window | null) ?? (window.parent !== window ? window.parent : null);
    opener?.postMessage('mounted', '*');
    return () => window.removeEventListener('message', onMessage);
  }, [trustedKey]);

  const lesson = lessonId ?? fromMessage?.lesson ?? getActiveLesson()?.lessonId ?? null;
  const page = pageId ?? fromMessage?.page ?? null;
  if (!lesson || !page)
    return (
      <div className="page page--narrow centered">
        <Spinner label={t('player.correction.waiting')} />
        <p>{t('player.correction.waiting')}</p>
      </div>
    );
  return <PlayerPage key={`${lesson}:${page}`} lessonId={lesson} pageId={page} mode="correction" />;
}
