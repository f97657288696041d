import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { getActiveLesson } from '../../../lib/storage';
import type { ClassView, CourseView } from '../model';
import { ClassCard } from './ClassCard';

function courseView(overrides: Partial<CourseView> = {}): CourseView {
  return {
    programCourseId: 'pc-1',
    courseId: 'k-1',
    title: 'Fractions',
    competencyIds: [],
    lesson: { id: 'l-1', state: 'AVAILABLE', percent: 0, scorePercent: null, ended: false },
    ...overrides,
  };
}

function classView(overrides: Partial<ClassView> = {}, courses: CourseView[] = [courseView()]): ClassView {
  return {
    id: 'c-1',
    name: 'Maths 2025',
    startAt: '2025-01-06T08:00:00Z',
    expireAt: '2025-06-30T18:00:00Z',
    period: 'current',
    teachers: ['Ana Martin', 'Bo Lee'],
    programs: [{ classProgramId: 'cp-1', programId: 'p-1', name: 'Numbers', courses }],
    mobileAllowed: true,
    ...overrides,
  };
}

const renderCard = (view: ClassView) =>
  render(
    <MemoryRouter>
      <ClassCard view={view} />
    </MemoryRouter>,
  );

describe('class card', () => {
  it('shows name, dates, period, teachers and programs', () => {
    renderCard(classView());
    expect(screen.getByRole('article', { name: 'Maths 2025' })).toBeInTheDocument();
    expect(screen.getByText('From Jan 6, 2025 to Jun 30, 2025')).toBeInTheDocument();
    expect(screen.getByText('In progress')).toBeInTheDocument();
    expect(screen.getByText('Trainers: Ana Martin, Bo Lee')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Numbers' })).toBeInTheDocument();
  });

  it('renders progress as an accessible progress bar with the score when max > 0', () => {
    renderCard(
      classView({}, [
        courseView({
          lesson: { id: 'l-1', state: 'AVAILABLE', percent: 62, scorePercent: 57, ended: false },
        }),
      ]),
    );
    const bar = screen.getByRole('progressbar', { name: 'Progress of Fractions' });
    expect(bar).toHaveAttribute('aria-valuenow', '62');
    expect(bar).toHaveAttribute('aria-valuetext', '62% completed');
    expect(screen.getByText('Score: 57%')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue Fractions' })).toBeInTheDocument();
  });

  it('hides the score when the lesson has no maximum', () => {
    renderCard(classView());
    expect(screen.queryByText(/Score/)).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress of Fractions' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
  });

  it('remembers the class and lesson when a lesson is opened', async () => {
    renderCard(classView());
    const link = screen.getByRole('link', { name: 'Start Fractions' });
    expect(link).toHaveAttribute('href', '/session/l-1');
    await userEvent.click(link);
    expect(getActiveLesson()).toEqual({ classId: 'c-1', lessonId: 'l-1' });
  });

  it('offers no link for locked lessons or classes that have not started', () => {
    const { unmount } = renderCard(
      classView({}, [
        courseView({ lesson: { id: 'l-1', state: 'LOCKED', percent: 0, scorePercent: null, ended: false } }),
      ]),
    );
    expect(screen.getByText('Locked')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    unmount();
    renderCard(classView({ period: 'next' }));
    expect(screen.getByText('Upcoming')).toBeInTheDocument();
    expect(screen.getByText(/has not started yet/)).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
