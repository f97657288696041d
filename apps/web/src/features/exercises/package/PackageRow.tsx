import type { PackageView } from '@parcours/domain/entities';
import { useRef, type CSSProperties, type RefObject } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { keyFromData, useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';
import { PACKAGE_SANDBOX, type CourseRequest, type CourseView } from './bridge-messages';
import { CourseNav } from './CourseNav';
import { packageInfoOf } from './package-info';
import { usePackageSession, type PackagePhase } from './use-package-session';
import { useOnline } from '../../../lib/use-online';
import './PackageRow.css';

/**
 * A package page (SCORM 1.2 / 2004, cmi5, xAPI; decision 0050). The package runs on the packages'
 * own origin in a dialog: a button opens it, closing it saves (the bridge's `terminate`) and the
 * player then reads the page and the lesson again, so the package's score shows. Offline, the
 * package says it needs the connection instead of opening.
 */
export function PackageRow({ row, idPrefix, packagePlay, onPackageClosed }: RowProps) {
  const { t } = useTranslation();
  const online = useOnline();
  const frame = useRef<HTMLIFrameElement>(null);
  const info = packageInfoOf(row.package);
  // A cmi5 course once satisfied plays again, in Review (issue 39): its page has no launch left.
  const review = info?.kind === 'cmi5' && !info.launch && !!packagePlay;
  const request =
    (info?.launch || review) && packagePlay
      ? { lessonId: packagePlay.lessonId, pageId: packagePlay.pageId, launch: info?.launch ?? 'relaunch' }
      : null;
  const session = usePackageSession({
    request,
    frame,
    onClosed: onPackageClosed,
    onTerminated: onPackageClosed,
  });
  if (!info) return null;
  const title =
    info.title || (typeof row.title === 'string' ? row.title : '') || t('exercises.package.title');
  const { phase } = session;
  const noteId = `${idPrefix}-package-note`;
  const units = info.units ?? [];
  const mode = review ? ('Review' as const) : undefined;
  const unitTitle = (i: number) => units[i]?.title || t('exercises.package.unit', { n: i + 1 });

  return (
    <div className="package-row">
      {!packagePlay || (!info.launch && !review) ? (
        // Preview and correction cannot launch; a played page without a launch is answered.
        <p id={noteId} className="package-row__note">
          {t(packagePlay ? 'exercises.package.finished' : 'exercises.package.notPlayable')}
        </p>
      ) : !online ? (
        <Alert tone="warning" className="package-row__note">
          <span id={noteId}>{t('exercises.package.needsConnection')}</span>
        </Alert>
      ) : (
        <p id={noteId} className="package-row__note">
          {t('exercises.package.intro')}
        </p>
      )}
      {review ? <p className="package-row__note">{t('exercises.package.review')}</p> : null}
      {units.length > 1 ? (
        // A cmi5 course of several AUs: its table of contents, each AU launched by its place.
        <nav aria-label={t('exercises.package.units', { title })}>
          <ol className="package-row__units">
            {units.map((u, i) => {
              // Its status as text beside it, and in the button's description (decision 0071).
              const statusId = `${idPrefix}-unit-${i}-status`;
              return (
                <li key={i}>
                  <Button
                    variant="secondary"
                    onClick={() => session.open({ au: i, ownWindow: u.ownWindow, launchMode: mode })}
                    disabled={!request || !online}
                    aria-describedby={u.status ? `${statusId} ${noteId}` : noteId}
                  >
                    {t('exercises.package.openUnit', { title: unitTitle(i) })}
                  </Button>
                  {u.status ? (
                    <span id={statusId} className={`package-row__status package-row__status--${u.status}`}>
                      {t(`exercises.package.unitStatus.${u.status}`)}
                    </span>
                  ) : null}
                  {u.ownWindow ? (
                    <span className="package-row__hint">{t('exercises.package.ownWindow')}</span>
                  ) : null}
                </li>
              );
            })}
          </ol>
        </nav>
      ) : (
        <Button
          onClick={() =>
            session.open(
              info.kind === 'cmi5'
                ? { au: 0, ownWindow: units[0]?.ownWindow ?? false, launchMode: mode }
                : undefined,
            )
          }
          disabled={!request || !online}
          aria-describedby={noteId}
        >
          {t('exercises.package.open', { title })}
        </Button>
      )}
      <Dialog
        isOpen={phase.name !== 'closed'}
        title={title}
        className={`package-dialog${info.width ? ' package-dialog--sized' : ''}`}
        onDismiss={session.close}
        actions={
          <>
            {phase.name === 'offline' || phase.name === 'failed' ? (
              <Button variant="secondary" onClick={() => session.open()}>
                {t('exercises.package.retry')}
              </Button>
            ) : null}
            <Button onClick={session.close} disabled={phase.name === 'closing'}>
              {t('exercises.package.close')}
            </Button>
          </>
        }
      >
        <PackageDialogBody
          phase={phase}
          commits={session.commits}
          refusal={session.refusal}
          course={session.course}
          onNavigate={session.navigate}
          idPrefix={idPrefix}
          info={info}
          title={title}
          frame={frame}
          online={online}
        />
      </Dialog>
    </div>
  );
}

function PackageDialogBody({
  phase,
  commits,
  refusal,
  course,
  onNavigate,
  idPrefix,
  info,
  title,
  frame,
  online,
}: {
  phase: PackagePhase;
  commits: number;
  refusal: string | null;
  course: CourseView | null;
  onNavigate: (request: CourseRequest, target?: string) => void;
  idPrefix: string;
  info: PackageView;
  title: string;
  frame: RefObject<HTMLIFrameElement | null>;
  online: boolean;
}) {
  const { t } = useTranslation();
  if (phase.name === 'launching' || phase.name === 'closed')
    return (
      <p role="status" className="package-dialog__status">
        {t('exercises.package.loading')}
      </p>
    );
  if (phase.name === 'offline') return <Alert tone="warning">{t('exercises.package.needsConnection')}</Alert>;
  if (phase.name === 'failed')
    return <Alert tone="error">{t(refusal ? keyFromData(refusal) : 'exercises.package.failed')}</Alert>;
  if (phase.name === 'playing' && phase.ownWindow)
    return (
      <p role="status" className="package-dialog__status">
        {t('exercises.package.ownWindowPlaying')}
      </p>
    );
  // The manifest's size when it gives one (never wider than the screen), else the dialog's.
  const sized: CSSProperties = { width: info.width ?? undefined, height: info.height ?? undefined };
  return (
    <>
      {!online ? <Alert tone="warning">{t('exercises.package.connectionLost')}</Alert> : null}
      {/* A save the server refused for the learner's budget (issue 36): the module stays open. */}
      {refusal ? <Alert tone="warning">{t(keyFromData(refusal))}</Alert> : null}
      <p role="status" className={phase.name === 'closing' ? 'package-dialog__status' : 'sr-only'}>
        {phase.name === 'closing'
          ? t('exercises.package.saving')
          : phase.ready
            ? t('exercises.package.ready')
            : t('exercises.package.loading')}
      </p>
      {/* A course (several SCOs): its contents beside the frame, which stays the same element. */}
      <div className={course ? 'package-course' : undefined}>
        {course && phase.name === 'playing' ? (
          <CourseNav course={course} idPrefix={idPrefix} onNavigate={onNavigate} />
        ) : null}
        <iframe
          ref={frame}
          className="package-frame"
          src={phase.launch.url}
          title={title}
          sandbox={PACKAGE_SANDBOX}
          allow="fullscreen"
          referrerPolicy="no-referrer"
          style={sized}
          data-ready={phase.name === 'playing' && phase.ready}
          data-commits={commits}
          data-sco={course?.current ?? undefined}
        />
      </div>
    </>
  );
}
