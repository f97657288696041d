import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { loadUser } from '../../../lib/session';
import { setToken } from '../../../lib/storage';
import { calledUrls, mockApi } from '../../../test/api-mock';
import { me, withTenant } from '../../../test/fixtures';
import { XpBadge } from './XpBadge';
import { xpSince } from './get-xp';

const record = (xp: number) => ({
  type: 'records',
  id: `r-${xp}`,
  attributes: {
    userId: 'u-1',
    date: '2026-11-01T00:00:00.000Z',
    scoring: { xp, donePageCount: 0, timeAlive: 0 },
  },
});

async function renderWith(latest: number | null, past: number | null) {
  const fetchMock = mockApi({
    'users/me': { body: me() },
    records: (url) => {
      const value = url.searchParams.has('filter[before]') ? past : latest;
      return {
        body: { data: value === null ? [] : [record(value)], meta: { total: value === null ? 0 : 1 } },
      };
    },
  });
  setToken('t');
  await loadUser();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <XpBadge />
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('XP badge', () => {
  it('shows the XP and its rise since a week ago, in green', async () => {
    const fetchMock = await renderWith(150, 120);
    const badge = await screen.findByRole('img', { name: '150 experience points, change +30 from 120' });
    expect(badge.querySelector('.badge__delta')).toHaveClass('badge__delta--positive');
    const before = calledUrls(fetchMock).find((u) => u.searchParams.has('filter[before]'));
    expect(before?.searchParams.get('filter[before]')).toBe(xpSince());
    expect(before?.searchParams.get('sort')).toBe('-date');
    expect(before?.searchParams.get('page[size]')).toBe('1');
  });

  it('a fall shows red; no snapshot before the date counts from zero', async () => {
    await renderWith(100, 130);
    const fall = await screen.findByRole('img', { name: /change -30 from 130/ });
    expect(fall.querySelector('.badge__delta')).toHaveClass('badge__delta--negative');
  });

  it('counts from zero without an older snapshot', async () => {
    await renderWith(40, null);
    expect(
      await screen.findByRole('img', { name: '40 experience points, change +40 from 0' }),
    ).toBeInTheDocument();
  });

  it("looks back as far as the tenant's badge settings say", async () => {
    withTenant({ badges: { xpPeriodDays: 14 } });
    const fetchMock = await renderWith(150, 120);
    expect(await screen.findByText('over 14 days')).toBeInTheDocument();
    const before = calledUrls(fetchMock).find((u) => u.searchParams.has('filter[before]'));
    expect(before?.searchParams.get('filter[before]')).toBe(xpSince(new Date(), 14));
  });
});
