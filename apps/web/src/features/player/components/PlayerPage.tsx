import { Suspense, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { usePageResources } from '../api/get-page-resources';
import { isOfflinePage } from '../offline/lesson-store';
import { usePlayerOffline } from '../offline/use-player-offline';
import { usePageCache, useWriting } from '../page-cache';
import { canRetry, correctionsOf, scoreOf, timeLimitOf } from '../player-model';
import { usePlayerSlots } from '../player-slots';
import { withPageValues } from '../page-values';
import { useAnswer } from '../use-answer';
import { HOME } from '../use-leave-lesson';
import { usePackageClosed } from '../use-package-closed';
import { usePageDrafts } from '../use-page-drafts';
import { useEnterForNext, usePageFocus } from '../use-page-focus';
import { usePageMoves } from '../use-page-moves';
import { usePagePlayer, type PlayerMode } from '../use-page-player';
import { useAnnouncer, usePlayerDialog } from '../use-player-dialog';
import { usePlayerFailure } from '../use-player-failure';
import { usePlayerHints } from '../use-player-hints';
import { useTincanScore } from '../use-tincan-score';
import { useKeepAlive, usePageClock } from '../use-timers';
import { BlockScreen } from './BlockScreen';
import { CorrectionLegend } from './CorrectionLegend';
import { ErrorDialog } from './Dialogs';
import { OfflineBanner } from '../offline/OfflineBanner';
import { OfflineDialog } from '../offline/OfflineDialog';
import { Footer } from './Footer';
import { Hints } from './Hints';
import { MultiblockChooser } from './MultiblockChooser';
import { PageCountdowns } from './PageCountdowns';
import { PlayerDialogs } from './PlayerDialogs';
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
  const navigate = useNavigate();
  const goHome = () => void navigate(HOME);
  const { query, page, playing, readOnly, waitingForStart } = usePagePlayer(lessonId, pageId, mode);
  const cache = usePageCache(lessonId, pageId);
  const busy = useWriting(lessonId);
  const dialogs = usePlayerDialog();
  const { dialog, open } = dialogs;
  const closeError = () => {
    dialogs.close();
    goHome();
  };
  const { live, announce } = useAnnouncer();
  const { fail, leave, loadError } = usePlayerFailure({ lessonId, playing, queryError: query.error, open });
  const offline = usePlayerOffline({
    lessonId,
    playing,
    page,
    loadError: query.error,
    show: cache.show,
    stop: (reason) => open({ kind: 'offline', reason }),
    announce,
    done: goHome,
    refresh: () => void query.refetch(),
    savedMessage: t('offline.saved'),
    sentMessage: t('offline.sent'),
  });
  const { answers, setAnswer } = usePageDrafts(page, readOnly);
  const common = { lessonId, page, playing, cache, fail };
  const moves = usePageMoves({ ...common, dialogOpen: dialog !== null, offline, leave, open, announce });
  const tincanScore = useTincanScore(common);
  const answer = useAnswer({
    ...common,
    waitingForStart,
    answers,
    dialog: dialogs,
    offline,
    advance: moves.advance,
    announce,
  });
  const hints = usePlayerHints({ ...common, readOnly, dialog: dialogs, announce });
  const packageClosed = usePackageClosed(common);
  const seconds = usePageClock(page?.id ?? null, playing && page !== null);
  useKeepAlive(lessonId, page?.id ?? null, playing && page !== null && !isOfflinePage(page), fail);

  const root = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const resources = usePageResources(page?.id ?? null, page ? lessonId : null);
  const { LessonNotFound } = usePlayerSlots();
  usePageFocus(page, heading);
  useEnterForNext(answer.next, {
    playing,
    isTincan: page?.block?.type === 'tincan',
    dialogOpen: dialog !== null || waitingForStart,
  });

  // The lesson itself is unknown (404, not the 409 of a missing next page): say that.
  if (playing && loadError === 'MODEL_NOT_FOUND' && isNotFound(query.error) && LessonNotFound)
    return (
      <Suspense fallback={<Spinner label={t('player.loading')} />}>
        <LessonNotFound />
      </Suspense>
    );
  if (loadError) {
    // docs/product.md §8 MODEL_NOT_FOUND: in the back office's correction window, closing the error closes
    // that window (the back office opened it) instead of sending the administrator home.
    const closesWindow = mode === 'correction' && loadError === 'MODEL_NOT_FOUND' && window.opener !== null;
    return <ErrorDialog code={loadError} onClose={closesWindow ? () => window.close() : goHome} />;
  }
  if (!page)
    return (
      <>
        <Spinner label={t('player.loading')} />
        {dialog?.kind === 'error' ? <ErrorDialog code={dialog.code} onClose={closeError} /> : null}
        {dialog?.kind === 'offline' ? <OfflineDialog reason={dialog.reason} onClose={goHome} /> : null}
      </>
    );

  // A parametrised exercise shows this learner's values (decision 0042).
  const block = page.block ? withPageValues(page.block, page.sheet, i18n.language) : null;
  const limit = timeLimitOf(page);
  const score = scoreOf(page.results);

  return (
    <div className={`player player--${mode}`} ref={root}>
      {playing ? <OfflineBanner status={offline.status} onDismissRefused={offline.dismissRefused} /> : null}
      <Toolbar
        position={{ index: page.index, count: page.count }}
        seconds={playing ? page.timeSpent + seconds : null}
        countdown={
          playing ? (
            <PageCountdowns page={page} onTimeUp={answer.timeUp} onLessonTimeUp={answer.lessonTimeUp} />
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
          answers={playing ? answers : (page.inputs?.answers ?? [])}
          onAnswer={setAnswer}
          readOnly={readOnly}
          corrections={playing ? null : correctionsOf(page)}
          announce={announce}
          onTincanAction={playing ? answer.tincanAction : undefined}
          onTincanScore={playing ? tincanScore : undefined}
          tincanLaunch={
            playing && page.tincanLaunch ? { lessonId, pageId: page.id, launch: page.tincanLaunch } : null
          }
          packagePlay={playing ? { lessonId, pageId: page.id } : null}
          onPackageClosed={playing ? packageClosed : undefined}
          onClose={goHome}
          showContent={!waitingForStart}
          before={
            <>
              {!playing ? <CorrectionLegend /> : null}
              {playing && hints.hints && page.courseTypeSettings.hints ? (
                <Hints hints={hints.hints} canReveal={!readOnly} onReveal={hints.requestHint} />
              ) : null}
              {score && playing ? (
                <Alert tone="info">
                  {t('player.results.score', { actual: score.actual, max: score.max })}
                </Alert>
              ) : null}
              {playing && canRetry(page) ? (
                <p className="player-retry">
                  <Button variant="secondary" onClick={moves.retry} disabled={busy}>
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
          onChoose={moves.choose}
          headingRef={heading}
          busy={busy}
        />
      ) : (
        <Alert tone="warning">{t('player.noBlock')}</Alert>
      )}
      {playing ? (
        <Footer
          block={block}
          canPrevious={page.index > 0}
          busy={busy}
          onPrevious={moves.previous}
          onNext={answer.next}
          onDashboard={goHome}
          fullscreenTarget={root}
        />
      ) : null}
      <div className="sr-only" role="status" aria-live="polite">
        {live}
      </div>
      <PlayerDialogs
        dialog={dialog}
        onClose={dialogs.close}
        onFeedbackContinue={answer.closeFeedback}
        onNoAnswerContinue={answer.continueWithoutAnswer}
        onHintConfirm={hints.revealHint}
        onError={closeError}
        timed={
          waitingForStart && limit !== null
            ? { seconds: limit, onStart: moves.startTimed, onLater: goHome }
            : null
        }
      />
    </div>
  );
}
