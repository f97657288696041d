import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { dateLocaleOf, formatDate } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { setActiveLesson } from '../../../lib/storage';
import { canOpen, canRestart, type ClassView, type CourseView } from '../model';
import { RestartProgram } from './RestartProgram';

function CourseRow({ view, course }: { view: ClassView; course: CourseView }) {
  const { t } = useTranslation();
  const lesson = course.lesson;
  const percent = lesson?.percent ?? 0;
  const stateKey = lesson ? (`home.lessonState.${lesson.state}` as const) : 'home.lessonState.NONE';
  return (
    <li className="course-row">
      <div className="course-row__head">
        <span className="course-row__title">{course.title}</span>
        <span className={`course-row__state course-row__state--${lesson?.state.toLowerCase() ?? 'none'}`}>
          {t(stateKey)}
        </span>
      </div>
      <ProgressBar
        value={percent}
        label={t('home.course.progressLabel', { title: course.title })}
        valueText={t('home.course.progressValue', { percent })}
      />
      <div className="course-row__foot">
        <span className="course-row__percent" aria-hidden="true">
          {t('home.course.progressValue', { percent })}
        </span>
        {lesson && lesson.scorePercent !== null ? (
          <span className="course-row__score">{t('home.course.score', { score: lesson.scorePercent })}</span>
        ) : null}
        {lesson && canOpen(view, course) ? (
          <Link
            className="btn btn--primary course-row__open"
            to={`/session/${lesson.id}`}
            onClick={() => setActiveLesson({ classId: view.id, lessonId: lesson.id })}
          >
            {percent > 0 ? t('home.course.continue') : t('home.course.start')}{' '}
            <span className="sr-only">{course.title}</span>
          </Link>
        ) : null}
      </div>
    </li>
  );
}

function DatesLine({ view }: { view: ClassView }) {
  const { t, i18n } = useTranslation();
  const start = formatDate(view.startAt, dateLocaleOf(i18n.language));
  const end = formatDate(view.expireAt, dateLocaleOf(i18n.language));
  let text: string | null = null;
  if (start && end) text = t('home.class.window', { start, end });
  else if (start) text = t('home.class.from', { start });
  else if (end) text = t('home.class.until', { end });
  return text ? <p className="class-card__dates">{text}</p> : null;
}

/** One class: name, dates, period, teachers, then each program with its courses and progress. */
export function ClassCard({ view, actions }: { view: ClassView; actions?: ReactNode }) {
  const { t } = useTranslation();
  const titleId = `class-${view.id}-title`;
  return (
    <article className="class-card card" aria-labelledby={titleId}>
      <header className="class-card__header">
        <h2 id={titleId} className="class-card__title">
          {view.name}
        </h2>
        <span className={`badge badge--${view.period}`}>{t(`home.period.${view.period}`)}</span>
      </header>
      <DatesLine view={view} />
      {view.teachers.length > 0 ? (
        <p className="class-card__teachers">
          {t('home.class.teachers', { count: view.teachers.length, names: view.teachers.join(', ') })}
        </p>
      ) : null}
      {actions ? <div className="class-card__actions">{actions}</div> : null}
      {view.period === 'next' ? <p className="class-card__note">{t('home.class.notStarted')}</p> : null}
      {view.programs.length === 0 ? <p className="class-card__note">{t('home.class.noProgram')}</p> : null}
      {view.programs.map((program) => (
        // A plain block, not a named section: the same program in several classes would make
        // duplicate landmarks.
        <div key={program.classProgramId} className="program">
          <div className="program__head">
            <h3 className="program__title">{program.name}</h3>
            {canRestart(view, program) ? (
              <RestartProgram classProgramId={program.classProgramId} name={program.name} />
            ) : null}
          </div>
          {program.courses.length > 0 ? (
            <ul className="program__courses">
              {program.courses.map((course) => (
                <CourseRow key={course.programCourseId} view={view} course={course} />
              ))}
            </ul>
          ) : (
            <p className="class-card__note">{t('home.program.noCourse')}</p>
          )}
        </div>
      ))}
    </article>
  );
}
