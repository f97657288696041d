import { medalColor } from '@parcours/domain/medal';
import type { CompetencyLevelAttributes } from '@parcours/domain/dashboard-levels';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { mockApi } from '../../../test/api-mock';
import { LevelsTab } from './LevelsTab';

function screenWidth(px: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: px >= Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function level(
  id: string,
  parentId: string | null,
  depth: number,
  actual: number,
  max: number,
  medal: CompetencyLevelAttributes['medal'],
) {
  const attributes: CompetencyLevelAttributes = {
    competencyId: id,
    parentId,
    title: `Title ${id}`,
    icon: 'calculator',
    order: 0,
    isGeneric: false,
    depth,
    actual,
    max,
    ratio: max > 0 ? actual / max : 0,
    medal,
    color: medalColor(max > 0 ? actual / max : 0),
  };
  return { type: 'competency-levels', id, attributes };
}

const TREE = [
  level('maths', null, 0, 8, 10, 'gold'),
  level('fractions', 'maths', 1, 3, 4, 'gold'),
  level('percent', 'maths', 1, 0, 0, null),
  level('safety', null, 0, 1, 4, 'bronze'),
];

function renderTab(data: unknown[]) {
  mockApi({ 'competency-levels': { body: { data, meta: { total: data.length } } } });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <LevelsTab />
    </QueryClientProvider>,
  );
}

describe('levels tab', () => {
  it('on desktop shows every competency with its medal and children nested', async () => {
    screenWidth(1280);
    renderTab(TREE);
    expect(await screen.findByRole('img', { name: 'Title maths: gold medal, 80 %' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Title safety: bronze medal, 25 %' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Title percent: no medal yet, 0 %' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 4, name: 'Title fractions' })).toBeInTheDocument();
    expect(screen.getByText(/No points yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Sub-competencies/ })).not.toBeInTheDocument();
    const picture = screen
      .getByRole('img', { name: 'Title maths: gold medal, 80 %' })
      .querySelector('.badge__img');
    expect(picture).toHaveAttribute('src', '/static/images/badges/badge-level_gold.png');
    expect(screen.getByRole('progressbar', { name: 'Progress Title safety' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    // docs/product.md §4 medal colour: 0.25 danger, 0.8 success (not the progress rule's primary).
    expect(screen.getByRole('progressbar', { name: 'Progress Title safety' })).toHaveClass(
      'competency__progress--danger',
    );
    expect(screen.getByRole('progressbar', { name: 'Progress Title maths' })).toHaveClass(
      'competency__progress--success',
    );
  });

  it('draws each competency icon from the competency set, and pads the widget by its count', async () => {
    screenWidth(1280);
    renderTab([...TREE, level('sales', null, 0, 0, 0, null), level('care', null, 0, 0, 0, null)]);
    const maths = await screen.findByRole('img', { name: 'Title maths: gold medal, 80 %' });
    expect(maths.querySelector('svg.badge__icon')).toHaveAttribute('data-icon', 'calculator');
    // docs/product.md §9: four competencies at the top (a multiple of 4) give 140px.
    expect(screen.getAllByRole('list')[0]!.style.getPropertyValue('--levels-padding')).toBe('140px');
  });

  it('on a phone collapses sub-competencies under an expandable parent', async () => {
    screenWidth(375);
    renderTab(TREE);
    const toggle = await screen.findByRole('button', { name: /Sub-competencies of Title maths/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('heading', { name: 'Title fractions' })).not.toBeInTheDocument();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const list = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(list).not.toBeNull();
    expect(within(list!).getByRole('heading', { name: 'Title fractions' })).toBeInTheDocument();
    // A competency without children has nothing to expand.
    expect(screen.queryByRole('button', { name: /Title safety/ })).not.toBeInTheDocument();
  });

  it('has a real empty state', async () => {
    screenWidth(1280);
    renderTab([]);
    expect(await screen.findByText(/No competency to show yet/)).toBeInTheDocument();
  });

  it('says when the levels cannot be loaded, and retries', async () => {
    screenWidth(1280);
    const fetchMock = mockApi({
      'competency-levels': { status: 500, body: { errors: [{ status: '500', code: 'UNDEFINED' }] } },
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <LevelsTab />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This section cannot be loaded right now.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(fetchMock.mock.calls.length).toBeGreaterThan(1);
  });
});
