import { Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { firstScreenShown } from '../../../lib/after-first-screen';
import { useTranslation } from '../../../lib/i18n';
import { usePageResources } from '../api/get-page-resources';
import {
  canRetry,
  correctionsOf,
  enterTriggersNext,
  isAnswered,
  scoreOf,
  timeLimitOf,
} from '../player-model';
import { usePlayerSlots } from '../player-slots';
import { withPageValues } from '../page-values';
import { usePagePlayer, type PlayerMode } from '../use-page-player';
import { BlockScreen } from './BlockScreen';
import { CorrectionLegend } from './CorrectionLegend';
import { Countdown } from './Countdown';
import {
  ErrorDialog,
  FeedbackDialog,
  HintConfirmDialog,
  NoAnswerDialog,
  TimedConfirmDialog,
} from './Dialogs';
import { OfflineBanner } from '../offline/OfflineBanner';
import { OfflineDialog } from '../offline/OfflineDialog';
import { Footer } from './Footer';
import { Hints } from './Hints';
import { MultiblockChooser } from './MultiblockChooser';
import { Toolbar } from './Toolbar';
import '../player.css';

const isNotFound = (error: unknown) => (error as { status?: unknown } | null)?.status === 404;

interface PlayerPageProps {
  lessonId: string;
  /** A page named by the route (an already reached page, or the page to correct). */
  pageId: string | null;
  mode?: PlayerMode;
}

/** Page mode (docs/product.md §2 /session/{id}[/page/{pageId}]) and correction mode (/correction…). */
export function PlayerPage({ lessonId, pageId, mode = 'page' }: PlayerPageProps) {
  const { t, i18n } = useTranslation();
  const player = usePagePlayer({ lessonId, pageId, mode });
  const { page } = player;
  const root = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shownPage = useRef<string | null>(null);
  const nextRef = useRef(player.next);
  const playing = mode === 'page';
  const resources = usePageResources(page?.id ?? null, page ? lessonId : null);
  const slots = usePlayerSlots();

  // A layout effect: the latest value is in place before the next event or timer, whatever
  // React's scheduling of plain effects (Enter right after ticking an answer must send it).
  useLayoutEffect(() => {
    nextRef.current = player.next;
  });

  // docs/product.md §4: after advancing the view goes to the top; focus follows so a screen reader starts
  // reading the new page at its title.
  useEffect(() => {
    if (!page) return;
    // Issue 11: what waits for the first screen (keeping the lesson for offline use, the service
    // worker) starts once this page is painted.
    firstScreenShown();
    if (shownPage.current !== null && shownPage.current !== page.id) {
      window.scrollTo(0, 0);
      heading.current?.focus({ preventScroll: true });
    }
    shownPage.current = page.id;
  }, [page]);

  const isTincan = page?.block?.type === 'tincan';
  const dialogOpen = player.dialog !== null || player.waitingForStart;
  // Listening from the commit on (a layout effect): an Enter pressed as soon as the new node or
  // page showed must not be lost before a plain effect would run.
  useLayoutEffect(() => {
    if (!playing) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!enterTriggersNext(event, { isTincan, dialogOpen, enabled: true })) return;
      event.preventDefault();
      nextRef.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [playing, isTincan, dialogOpen]);

  // The lesson itself is unknown (404, not the 409 of a missing next page): say that.
  const { LessonNotFound } = slots;
  if (playing && player.loadError === 'MODEL_NOT_FOUND' && isNotFound(player.query.error) && LessonNotFound)
    return (
      <Suspense fallback={<Spinner label={t('player.loading')} />}>
        <LessonNotFound />
      </Suspense>
    );
  if (player.loadError) {
    // docs/product.md §8 MODEL_NOT_FOUND: in the back office's correction window, closing the error closes
    // that window (the back office opened it) instead of sending the administrator home.
    const closesWindow =
      mode === 'correction' && player.loadError === 'MODEL_NOT_FOUND' && window.opener !== null;
    return (
      <ErrorDialog code={player.loadError} onClose={closesWindow ? () => window.close() : player.goHome} />
    );
  }
  if (!page)
    return (
      <>
        <Spinner label={t('player.loading')} />
        {player.dialog?.kind === 'error' ? (
          <ErrorDialog code={player.dialog.code} onClose={player.closeError} />
        ) : null}
        {player.dialog?.kind === 'offline' ? (
          <OfflineDialog reason={player.dialog.reason} onClose={player.goHome} />
        ) : null}
      </>
    );

  // A parametrised exercise shows this learner's values (decision 0042).
  const block = page.block ? withPageValues(page.block, page.sheet, i18n.language) : null;
  const limit = timeLimitOf(page);
  const score = scoreOf(page.results);
  const dialog = player.dialog;
  const lessonLimited = playing && page.lessonTimeLimit !== null && page.lessonRemainingSeconds !== null;
  const pageCountdown =
    playing && limit !== null && page.remainingSeconds !== null && !isAnswered(page) ? (
      <Countdown
        seconds={page.remainingSeconds}
        restartKey={`${page.id}:${page.startedAt ?? ''}`}
        onEnded={player.timeUp}
        scope={lessonLimited ? 'exercise' : 'plain'}
      />
    ) : null;
  // Each page document carries the server's lesson clock: a new document re-syncs it.
  const lessonCountdown =
    lessonLimited && page.lessonRemainingSeconds !== null ? (
      <Countdown
        seconds={page.lessonRemainingSeconds}
        restartKey={`lesson:${page.id}`}
        onEnded={player.lessonTimeUp}
        scope="lesson"
      />
    ) : null;

  return (
    <div className={`player player--${mode}`} ref={root}>
      {playing ? (
        <OfflineBanner status={player.offlineStatus} onDismissRefused={player.dismissRefused} />
      ) : null}
      <Toolbar
        position={{ index: page.index, count: page.count }}
        seconds={playing ? page.timeSpent + player.seconds : null}
        countdown={
          pageCountdown || lessonCountdown ? (
            <>
              {lessonCountdown}
              {pageCountdown}
            </>
          ) : null
        }
        resources={resources.data?.resources ?? []}
        files={resources.data?.files ?? []}
        calculator={Boolean(page.node.tools.calculator)}
      />
      {block ? (
        <BlockScreen
          block={block}
          idPrefix={`p-${page.id}`}
          headingRef={heading}
          answers={playing ? player.answers : (page.inputs?.answers ?? [])}
          onAnswer={player.setAnswer}
          readOnly={player.readOnly}
          corrections={playing ? null : correctionsOf(page)}
          announce={player.announce}
          onTincanAction={playing ? player.tincanAction : undefined}
          onTincanScore={playing ? player.tincanScore : undefined}
          tincanLaunch={
            playing && page.tincanLaunch ? { lessonId, pageId: page.id, launch: page.tincanLaunch } : null
          }
          packagePlay={playing ? { lessonId, pageId: page.id } : null}
          onPackageClosed={playing ? player.packageClosed : undefined}
          onClose={player.goHome}
          showContent={!player.waitingForStart}
          before={
            <>
              {!playing ? <CorrectionLegend /> : null}
              {playing && player.hints && page.courseTypeSettings.hints ? (
                <Hints hints={player.hints} canReveal={!player.readOnly} onReveal={player.requestHint} />
              ) : null}
              {score && playing ? (
                <Alert tone="info">
                  {t('player.results.score', { actual: score.actual, max: score.max })}
                </Alert>
              ) : null}
              {playing && canRetry(page) ? (
                <p className="player-retry">
                  <Button variant="secondary" onClick={player.retry} disabled={player.busy}>
                    <span aria-hidden="true">↻ </span>
                    {t('player.retry.button')}
                  </Button>
                </p>
              ) : null}
            </>
          }
        />
      ) : page.children.length > 0 ? (
        <MultiblockChooser
          title={page.node.title}
          choices={page.children.map((c) => ({ id: c.nodeId, title: c.title, done: c.done }))}
          onChoose={player.choose}
          headingRef={heading}
          busy={player.busy}
        />
      ) : (
        <Alert tone="warning">{t('player.noBlock')}</Alert>
      )}
      {playing ? (
        <Footer
          block={block}
          canPrevious={page.index > 0}
          busy={player.busy}
          onPrevious={player.previous}
          onNext={player.next}
          onDashboard={player.goHome}
          fullscreenTarget={root}
        />
      ) : null}
      <div className="sr-only" role="status" aria-live="polite">
        {player.live}
      </div>
      {dialog?.kind === 'feedback' ? (
        <FeedbackDialog feedbacks={dialog.feedbacks} index={dialog.index} onContinue={player.closeFeedback} />
      ) : null}
      {dialog?.kind === 'noAnswer' ? (
        <NoAnswerDialog onStay={player.stay} onContinue={player.continueWithoutAnswer} />
      ) : null}
      {dialog?.kind === 'hint' ? (
        <HintConfirmDialog cost={dialog.cost} onConfirm={player.revealHint} onCancel={player.cancelHint} />
      ) : null}
      {dialog?.kind === 'error' ? <ErrorDialog code={dialog.code} onClose={player.closeError} /> : null}
      {dialog?.kind === 'offline' ? (
        <OfflineDialog reason={dialog.reason} onClose={player.closeOffline} />
      ) : null}
      {player.waitingForStart && limit !== null && dialog === null ? (
        <TimedConfirmDialog seconds={limit} onStart={player.startTimed} onLater={player.declineTimed} />
      ) : null}
    </div>
  );
}
