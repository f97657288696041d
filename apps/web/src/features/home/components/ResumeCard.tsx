import { useMemo } from 'react';
import { Link } from 'react-router';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { useTranslation } from '../../../lib/i18n';
import { getActiveLesson, getLastLesson, setActiveLesson } from '../../../lib/storage';
import type { LessonResource } from '../api/get-lessons';
import type { ClassView } from '../model';
import { resumeTarget } from './ResumeCard.model';
import './ResumeCard.css';

interface ResumeCardProps {
  /** The class cards the home lists (before its filters: the card is about the learner, not the search). */
  views: readonly ClassView[] | null;
  lessons: readonly LessonResource[] | undefined;
}

/**
 * Issue 12: what the learner was doing, first on the home — the last lesson opened, its class and
 * program, its progress and a button to its current page (the player opens `pages/current`).
 * Opening it records the active class like a class card does, so SPEC §2's page restore still
 * finds that class's page of the list.
 */
export function ResumeCard({ views, lessons }: ResumeCardProps) {
  const { t } = useTranslation();
  const target = useMemo(
    () =>
      views && lessons
        ? resumeTarget(views, lessons, [getLastLesson(), getActiveLesson()?.lessonId ?? null])
        : null,
    [views, lessons],
  );
  // While the home's reads are on their way the card's room is held, so the filters and the
  // class list do not jump down when it arrives (Lighthouse measured a CLS of 0.22 without it).
  if (!views || !lessons) return <div className="resume-card resume-card--pending card" aria-hidden="true" />;
  if (!target) return null;
  const titleId = 'resume-card-title';
  return (
    <section className="resume-card card" aria-labelledby={titleId}>
      <h2 id={titleId} className="resume-card__kicker">
        {target.started ? t('resume.title') : t('resume.titleNew')}
      </h2>
      <p className="resume-card__course">{target.courseTitle}</p>
      <p className="resume-card__where">
        {t('resume.where', { className: target.className, programName: target.programName })}
      </p>
      <ProgressBar
        value={target.percent}
        label={t('resume.progressLabel', { title: target.courseTitle })}
        valueText={t('home.course.progressValue', { percent: target.percent })}
      />
      <div className="resume-card__foot">
        <span aria-hidden="true">{t('home.course.progressValue', { percent: target.percent })}</span>
        {target.scorePercent !== null ? (
          <span>{t('home.course.score', { score: target.scorePercent })}</span>
        ) : null}
        <Link
          className="btn btn--primary resume-card__open"
          to={`/session/${target.lessonId}`}
          onClick={() => setActiveLesson({ classId: target.classId, lessonId: target.lessonId })}
        >
          {target.started ? t('resume.resume') : t('resume.start')}{' '}
          <span className="sr-only">{target.courseTitle}</span>
        </Link>
      </div>
    </section>
  );
}
