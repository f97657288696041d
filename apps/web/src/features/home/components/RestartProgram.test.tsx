import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { setToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import type { ClassView, CourseView } from '../model';
import { canRestart } from '../model';
import { ClassCard } from './ClassCard';

const ended = (id: string): CourseView => ({
  programCourseId: `pc-${id}`,
  courseId: `k-${id}`,
  title: `Course ${id}`,
  competencyIds: [],
  lesson: { id: `l-${id}`, state: 'DONE', percent: 100, scorePercent: 80, ended: true },
});

function view(courses: CourseView[], period: ClassView['period'] = 'current'): ClassView {
  return {
    id: 'c-1',
    name: 'Spring',
    startAt: null,
    expireAt: null,
    period,
    teachers: [],
    programs: [{ classProgramId: 'cp-1', programId: 'p-1', name: 'Numbers', courses }],
    mobileAllowed: true,
  };
}

describe('restarting a finished program (issue 12)', () => {
  it.each([
    ['every lesson ended, class running', [ended('a'), ended('b')], 'current', true],
    [
      'one lesson still going',
      [
        ended('a'),
        {
          ...ended('b'),
          lesson: { id: 'l-b', state: 'AVAILABLE', percent: 40, scorePercent: null, ended: false },
        },
      ],
      'current',
      false,
    ],
    ['a course never started', [ended('a'), { ...ended('b'), lesson: null }], 'current', false],
    ['a class that is over', [ended('a')], 'past', false],
    ['no course at all', [], 'current', false],
  ] as const)('%s → %s', (_what, courses, period, expected) => {
    expect(canRestart(view([...courses], period), view([...courses], period).programs[0]!)).toBe(expected);
  });

  it('asks first, says what restarts and what is kept, then restarts through the API', async () => {
    setToken('t');
    const fetchMock = mockApi({
      'POST class-programs/cp-1/reset/me': { body: { data: [], meta: { total: 0 } } },
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ClassCard view={view([ended('a')])} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: /Restart the program/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Restart “Numbers”?' });
    expect(dialog).toHaveTextContent('start again from the beginning');
    expect(dialog).toHaveTextContent('earlier answers stay archived');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Restart' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => String(url).endsWith('/api/class-programs/cp-1/reset/me') && init?.method === 'POST',
      ),
    ).toBe(true);
    expect(invalidate).toHaveBeenCalled();
  });
});
