import { screen } from '@testing-library/react';
import { loadUser } from '../../../lib/session';
import { setToken } from '../../../lib/storage';
import { mockApi } from '../../../test/api-mock';
import { classUsersDoc, me } from '../../../test/fixtures';
import { EvaluatePage } from './EvaluatePage';
import { renderAt } from './test-utils';

// Issue 9: where a rating was given, it is shown with the rating display (docs/product.md §3, §9).
it('shows a review already given with its stars and percent', async () => {
  setToken('token');
  mockApi({
    'users/me': { body: me() },
    'class-users': {
      body: classUsersDoc([
        { id: 'c-1', name: 'Spring', programs: [{ id: 'p-1', name: 'Core', courses: [] }] },
      ]),
    },
    'GET reviews': {
      body: {
        data: [
          {
            type: 'reviews',
            id: 'r-1',
            attributes: {
              classId: 'c-1',
              comment: null,
              resourceType: 'program',
              resourceId: 'p-1',
              ratio: 0.8,
              userId: 'u-1',
              createdAt: '2026-01-01T00:00:00Z',
            },
          },
        ],
        meta: { total: 1 },
      },
    },
  });
  await loadUser();
  renderAt('/evaluate/program/p-1', '/evaluate/:type/:id', <EvaluatePage type="program" id="p-1" />);
  // 0.8 × 6 = 4.8 half stars → 2 stars; the tooltip says 80.0 %.
  expect(await screen.findByRole('img', { name: '2 stars out of 3 (80.0 %)' })).toBeInTheDocument();
  expect(screen.getByText('Rating given')).toBeInTheDocument();
});
