import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { changeLanguage } from '../../../lib/i18n';
import { getActiveLesson, setActiveLesson, setLastLesson } from '../../../lib/storage';
import { lesson } from '../../../test/fixtures';
import type { LessonResource } from '../api/get-lessons';
import type { ClassView, CourseView, LessonView } from '../model';
import { ResumeCard } from './ResumeCard';
import { resumeTarget } from './ResumeCard.model';

const lessonView = (id: string, o: Partial<LessonView> = {}): LessonView => ({
  id,
  state: 'AVAILABLE',
  percent: 0,
  scorePercent: null,
  ended: false,
  ...o,
});

const course = (title: string, l: LessonView | null): CourseView => ({
  programCourseId: `pc-${title}`,
  courseId: `k-${title}`,
  title,
  competencyIds: [],
  lesson: l,
});

const classView = (id: string, courses: CourseView[], o: Partial<ClassView> = {}): ClassView => ({
  id,
  name: `Class ${id}`,
  startAt: null,
  expireAt: null,
  period: 'current',
  teachers: [],
  programs: [{ classProgramId: `cp-${id}`, programId: `p-${id}`, name: `Program ${id}`, courses }],
  mobileAllowed: true,
  ...o,
});

const started = (id: string, startedAt: string | null): LessonResource =>
  lesson(id, 'c', 'pc', 'k', { startedAt });

describe('resumeTarget', () => {
  const views = [
    classView('a', [
      course('Fresh', lessonView('l-fresh')),
      course('Old', lessonView('l-old', { percent: 30 })),
      course('Done', lessonView('l-done', { percent: 100, ended: true })),
      course('Locked', lessonView('l-locked', { state: 'LOCKED', percent: 10 })),
    ]),
    classView('b', [course('Recent', lessonView('l-recent', { percent: 5 }))]),
    classView('z', [course('Future', lessonView('l-future', { percent: 50 }))], { period: 'next' }),
  ];
  const lessons = [
    started('l-old', '2026-01-01T00:00:00Z'),
    started('l-recent', '2026-03-01T00:00:00Z'),
    started('l-fresh', null),
  ];

  it.each([
    { why: 'the lesson last played on this device', preferred: ['l-old'], lessonId: 'l-old' },
    { why: 'the active lesson when nothing was played', preferred: [null, 'l-fresh'], lessonId: 'l-fresh' },
    { why: 'the latest started lesson when none is known', preferred: [], lessonId: 'l-recent' },
    { why: 'never an ended lesson', preferred: ['l-done'], lessonId: 'l-recent' },
    { why: 'never a locked lesson', preferred: ['l-locked'], lessonId: 'l-recent' },
    { why: 'never a class not started yet', preferred: ['l-future'], lessonId: 'l-recent' },
    { why: 'never a lesson of another learner', preferred: ['l-unknown'], lessonId: 'l-recent' },
  ])('offers $why', ({ preferred, lessonId }) => {
    expect(resumeTarget(views, lessons, preferred)?.lessonId).toBe(lessonId);
  });

  it('offers the first lesson to start when none was started, and nothing when none opens', () => {
    const fresh = [classView('a', [course('Fresh', lessonView('l-fresh'))])];
    expect(resumeTarget(fresh, [started('l-fresh', null)], [])).toMatchObject({
      lessonId: 'l-fresh',
      started: false,
      className: 'Class a',
      programName: 'Program a',
    });
    expect(resumeTarget([classView('z', [course('F', lessonView('l-f'))], { period: 'past' })], [], [])).toBe(
      null,
    );
  });
});

describe('ResumeCard', () => {
  const views = [classView('a', [course('Fractions', lessonView('l-1', { percent: 42, scorePercent: 57 }))])];
  const renderCard = (v: ClassView[] | null = views) =>
    render(
      <MemoryRouter>
        <ResumeCard views={v} lessons={[started('l-1', '2026-01-01T00:00:00Z')]} />
      </MemoryRouter>,
    );

  it('shows the lesson, its class and program, its progress and a Resume link to the player', async () => {
    const user = userEvent.setup();
    setLastLesson('l-1');
    renderCard();
    const card = screen.getByRole('region', { name: 'Pick up where you left off' });
    expect(card).toHaveTextContent('Fractions');
    expect(card).toHaveTextContent('Class a · Program a');
    expect(screen.getByRole('progressbar', { name: 'Your progress in Fractions' })).toHaveAttribute(
      'aria-valuenow',
      '42',
    );
    expect(card).toHaveTextContent('Score: 57%');
    const link = screen.getByRole('link', { name: 'Resume Fractions' });
    expect(link).toHaveAttribute('href', '/session/l-1');
    // Opening it keeps SPEC §2's page restore: the class becomes the active one.
    await user.click(link);
    expect(getActiveLesson()).toEqual({ classId: 'a', lessonId: 'l-1' });
  });

  it('speaks French', async () => {
    await changeLanguage('fr');
    setActiveLesson({ classId: 'a', lessonId: 'l-1' });
    renderCard();
    expect(screen.getByRole('region', { name: 'Reprendre là où vous en étiez' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reprendre Fractions' })).toBeInTheDocument();
  });

  it('holds its room, silent and unnamed, while the home loads (no layout shift when it comes)', () => {
    const { container } = renderCard(null);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    const pending = container.querySelector('.resume-card--pending');
    expect(pending).toHaveAttribute('aria-hidden', 'true');
    expect(pending).toBeEmptyDOMElement();
  });

  it('shows nothing once loaded when no lesson opens', () => {
    const { container } = renderCard([]);
    expect(container).toBeEmptyDOMElement();
  });
});
