import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { mockApi } from '../../../test/api-mock';
import { JobsTab } from './JobsTab';

function renderTab(data: unknown[]) {
  mockApi({ 'category-progress': { body: { data, meta: { total: data.length } } } });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <JobsTab />
    </QueryClientProvider>,
  );
}

const job = (id: string, title: string, percent: number, level: string) => ({
  type: 'category-progress',
  id,
  attributes: {
    categoryId: id,
    title,
    icon: 'handshake',
    startedLessons: 1,
    actual: percent,
    max: 100,
    percent,
    level,
  },
});

describe('jobs tab', () => {
  it('shows a theme badge per started category with its percent out of 100', async () => {
    renderTab([job('sales', 'Sales', 62, 'silver'), job('safety', 'Safety', 0, 'none')]);
    const sales = await screen.findByRole('img', { name: 'Sales: 62 out of 100' });
    expect(sales.querySelector('.badge__img')).toHaveAttribute(
      'src',
      '/static/images/badges/badge-theme_silver_xl.png',
    );
    expect(screen.getByRole('img', { name: 'Safety: 0 out of 100' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Sales' })).toBeInTheDocument();
    expect(screen.getByText('62 / 100')).toBeInTheDocument();
  });

  it('has a real empty state', async () => {
    renderTab([]);
    expect(await screen.findByText(/No job started yet/)).toBeInTheDocument();
  });
});
