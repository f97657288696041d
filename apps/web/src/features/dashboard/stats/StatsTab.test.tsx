import type { StatisticsAttributes, StatisticsBucketAttributes } from '@parcours/domain/statistics';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../lib/storage';
import { calledUrls, mockApi } from '../../../test/api-mock';
import { StatsTab } from './StatsTab';

// jsdom has no canvas: a stand-in uPlot records what the chart asks of it.
const plots = vi.hoisted(() => [] as { series: { label?: string; show?: boolean }[]; destroyed: boolean }[]);
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { bars: () => () => null };
    series: { label?: string; show?: boolean }[];
    width = 640;
    destroyed = false;
    constructor(opts: { series: { label?: string; show?: boolean }[] }) {
      this.series = opts.series.map((s) => ({ ...s, show: s.show ?? true }));
      plots.push(this);
    }
    setSeries(i: number, o: { show?: boolean }) {
      const s = this.series[i];
      if (s && o.show !== undefined) s.show = o.show;
    }
    setSize() {}
    destroy() {
      this.destroyed = true;
    }
  }
  return { default: FakePlot };
});

function bucket(
  key: string,
  unit: StatisticsBucketAttributes['unit'],
  extra: Partial<StatisticsBucketAttributes> = {},
): StatisticsBucketAttributes {
  return {
    key,
    unit,
    from: `${key}T00:00:00.000Z`,
    to: `${key}T23:59:59.999Z`,
    pagesDone: 0,
    timeSpent: 0,
    scoreActual: 0,
    scoreMax: 0,
    progression: null,
    ...extra,
  };
}

function attributes(period: string, buckets: StatisticsBucketAttributes[]): StatisticsAttributes {
  return {
    userId: 'u1',
    period: period as StatisticsAttributes['period'],
    timeZone: 'UTC',
    from: buckets[0]?.from ?? '',
    to: buckets.at(-1)?.to ?? '',
    grains: buckets.reduce((n, b) => n + b.pagesDone, 0),
    timeSpent: buckets.reduce((n, b) => n + b.timeSpent, 0),
    buckets,
  };
}

const WEEK = [
  bucket('2026-11-17', 'day', { pagesDone: 2, timeSpent: 150, scoreActual: 1, scoreMax: 2, progression: 50 }),
  ...['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'].map((k) => bucket(k, 'day')),
  bucket('2026-11-23', 'day', {
    pagesDone: 3,
    timeSpent: 3700,
    scoreActual: 3,
    scoreMax: 4,
    progression: 75,
  }),
];
const MONTHS = ['2026-06-01', '2026-07-01', '2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01'].map(
  (k, i) =>
    bucket(
      k,
      'month',
      i === 5 ? { pagesDone: 9, timeSpent: 600, scoreActual: 8, scoreMax: 10, progression: 80 } : {},
    ),
);

function setup(byPeriod: Record<string, StatisticsBucketAttributes[]>) {
  setToken('token');
  const fetchMock = mockApi({
    statistics: (url) => {
      const period = url.searchParams.get('filter[period]') ?? '1w';
      return {
        body: {
          data: {
            type: 'statistics',
            id: `u1:${period}`,
            attributes: attributes(period, byPeriod[period] ?? []),
          },
        },
      };
    },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <StatsTab />
    </QueryClientProvider>,
  );
  return fetchMock;
}

beforeEach(() => {
  plots.length = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const livePlots = () => plots.filter((p) => !p.destroyed);
/** The figure shown under a summary term ("Grains completed" → "5"). */
const figure = (term: string) => screen.getByText(term).closest('div')?.querySelector('dd')?.textContent;

describe('stats tab', () => {
  it('shows the grains and time of the default period (1 week), with the three charts', async () => {
    const fetchMock = setup({ '1w': WEEK });
    expect(await screen.findByText('Grains completed')).toBeInTheDocument();
    expect(figure('Grains completed')).toBe('5');
    expect(figure('Time spent')).toBe('1 h 4 min');
    expect(screen.getByRole('radio', { name: '1 week' })).toBeChecked();
    for (const name of ['Activity', 'Progress', 'Time'])
      expect(screen.getByRole('heading', { name, level: 3 })).toBeInTheDocument();
    expect(livePlots()).toHaveLength(3);
    const url = calledUrls(fetchMock)[0];
    expect(url?.searchParams.get('filter[period]')).toBe('1w');
    expect(url?.searchParams.get('filter[tz]')).toBeTruthy();
  });

  it('has a data table for each chart, with every bucket', async () => {
    setup({ '1w': WEEK });
    const activity = await screen.findByRole('table', { name: 'Activity: chart data' });
    expect(within(activity).getAllByRole('row')).toHaveLength(8);
    expect(
      within(activity).getByRole('rowheader', { name: 'Monday, November 23, 2026' }),
    ).toBeInTheDocument();
    const time = screen.getByRole('table', { name: 'Time: chart data' });
    expect(within(time).getByRole('cell', { name: '1 h 1 min' })).toBeInTheDocument();
    const progress = screen.getByRole('table', { name: 'Progress: chart data' });
    expect(within(progress).getByRole('columnheader', { name: 'Period to date (%)' })).toBeInTheDocument();
    // 1 + 3 of 2 + 4 points so far by the last day.
    expect(within(progress).getAllByRole('row').at(-1)).toHaveTextContent('75 %66 %');
  });

  it('fetches the chosen period and shows its buckets', async () => {
    const fetchMock = setup({ '1w': WEEK, '6m': MONTHS });
    await screen.findByRole('table', { name: 'Activity: chart data' });
    await userEvent.click(screen.getByRole('radio', { name: '6 months' }));
    expect(screen.getByRole('radio', { name: '6 months' })).toBeChecked();
    await waitFor(() =>
      expect(calledUrls(fetchMock).map((u) => u.searchParams.get('filter[period]'))).toContain('6m'),
    );
    await waitFor(() => expect(figure('Grains completed')).toBe('9'));
    const activity = screen.getByRole('table', { name: 'Activity: chart data' });
    expect(within(activity).getAllByRole('row')).toHaveLength(7);
    expect(within(activity).getByRole('columnheader', { name: 'Month' })).toBeInTheDocument();
  });

  it('hides and shows a series from its legend button', async () => {
    setup({ '1w': WEEK });
    await screen.findByRole('table', { name: 'Progress: chart data' });
    const legend = screen.getByRole('list', { name: 'Legend: Progress' });
    const button = within(legend).getByRole('button', { name: 'Period to date (%)' });
    expect(button).toHaveAttribute('aria-pressed', 'true');
    const chart = livePlots().find((p) => p.series.some((s) => s.label === 'Period to date (%)'));
    const index = chart?.series.findIndex((s) => s.label === 'Period to date (%)') ?? -1;
    expect(chart?.series[index]?.show).toBe(true);

    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(chart?.series[index]?.show).toBe(false);
    // The other series of the chart stays.
    expect(chart?.series.find((s) => s.label === 'Points earned (%)')?.show).toBe(true);

    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(chart?.series[index]?.show).toBe(true);
  });

  it('says so when the period holds no activity', async () => {
    setup({
      '1w': WEEK.map((b) => ({
        ...b,
        pagesDone: 0,
        timeSpent: 0,
        scoreActual: 0,
        scoreMax: 0,
        progression: null,
      })),
    });
    expect(await screen.findByRole('heading', { name: 'No activity in this period' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(figure('Time spent')).toBe('0 sec');
    expect(plots).toHaveLength(0);
  });

  it('shows an error when the statistics cannot be loaded', async () => {
    setToken('token');
    mockApi({
      statistics: { status: 500, body: { errors: [{ status: '500', code: 'INTERNAL', title: 'x' }] } },
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <StatsTab />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Your statistics could not be loaded');
  });
});
