import { useCallback, useEffect, useMemo, useState } from 'react';
import { parseCorrectionMessage, trustedOrigins } from '@parcours/domain/window-messages';
import { Alert } from '../../../components/ui/Alert';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { getActiveLesson } from '../../../lib/storage';
import { useTenant } from '../../../lib/tenant';
import { useWindowMessages } from '../use-window-messages';
import { PlayerPage } from './PlayerPage';

/** How long a bare /correction waits for the back office's message before saying so. */
export const CORRECTION_WAIT_MS = 10_000;

/**
 * docs/product.md §2 correction: the page and lesson come from the route or from a window message
 * {page, lesson} sent by the back office (our own origin or the tenant's back-office or app
 * host). Timers and pings are off: PlayerPage runs in correction mode. A message from another
 * origin is refused with both origins named; one that does not parse is reported.
 */
export function CorrectionPage({ lessonId, pageId }: { lessonId: string | null; pageId: string | null }) {
  const { t } = useTranslation();
  const tenant = useTenant();
  const hosts = tenant?.attributes.hosts;
  const trusted = useMemo(() => trustedOrigins(window.location.origin, hosts), [hosts]);
  const [fromMessage, setFromMessage] = useState<{ lesson: string | null; page: string } | null>(null);
  const [refusal, setRefusal] = useState<{ title: string; text: string } | null>(null);
  const [waitedLong, setWaitedLong] = useState(false);

  const onMessage = useCallback(
    (event: MessageEvent) => {
      const message = parseCorrectionMessage({ origin: event.origin, data: event.data as unknown }, trusted);
      if (message.kind === 'page') {
        setFromMessage({ page: message.page, lesson: message.lesson });
        setRefusal(null);
      } else if (message.kind === 'wrong-origin') {
        setRefusal({
          title: t('preview.wrongOrigin.title'),
          text: t('preview.wrongOrigin.text', {
            received: message.received,
            expected: message.expected.join(', '),
          }),
        });
      } else if (message.kind === 'malformed') {
        setRefusal({ title: t('preview.malformed.title'), text: message.issues.join(' ; ') });
      }
    },
    [trusted, t],
  );
  useWindowMessages(onMessage);

  const lesson = lessonId ?? fromMessage?.lesson ?? getActiveLesson()?.lessonId ?? null;
  const page = pageId ?? fromMessage?.page ?? null;
  const waiting = !lesson || !page;
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setTimeout(() => setWaitedLong(true), CORRECTION_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [waiting]);

  if (waiting)
    return (
      <div className="page page--narrow centered">
        {refusal ? (
          <Alert tone="error" title={refusal.title}>
            <p>{refusal.text}</p>
          </Alert>
        ) : waitedLong ? (
          <Alert tone="warning" title={t('player.correction.nothing.title')}>
            <p>{t('player.correction.nothing.text')}</p>
          </Alert>
        ) : (
          <>
            <Spinner label={t('player.correction.waiting')} />
            <p>{t('player.correction.waiting')}</p>
          </>
        )}
      </div>
    );
  return <PlayerPage key={`${lesson}:${page}`} lessonId={lesson} pageId={page} mode="correction" />;
}
