import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import { withTenant } from '../../../test/fixtures';
import { DASHBOARD_TABS, type DashboardTab } from '../tabs';
import { DashboardPage } from './DashboardPage';

/** jsdom has no layout: the media query answers what the test says the screen width is. */
function screenWidth(px: number) {
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0);
    return {
      matches: px >= min,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
  });
}

// The real panels fetch; the shell is tested with panels that only say which one they are.
const fakeTabs: DashboardTab[] = DASHBOARD_TABS.map((tab) => ({
  ...tab,
  Panel: lazy(async () => ({ default: () => <p>panel {tab.id}</p> })),
}));

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        {DASHBOARD_TABS.map((tab) => (
          <Route key={tab.path} path={tab.path} element={<DashboardPage tabs={fakeTabs} />} />
        ))}
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

describe('dashboard shell', () => {
  it('on desktop shows every allowed tab as a link, the current one marked', async () => {
    screenWidth(1280);
    withTenant({ certification: { allowed: true, type: 'certification' } });
    renderAt('/metiers');
    const nav = screen.getByRole('navigation', { name: 'Dashboard sections' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Levels',
      'Jobs',
      'Statistics',
      'Certifications',
      'Logbook',
    ]);
    expect(within(nav).getByRole('link', { name: 'Jobs' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Levels' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByText('panel jobs')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Jobs' })).toBeInTheDocument();

    await userEvent.click(within(nav).getByRole('link', { name: 'Levels' }));
    // React Router moves in a transition: on a busy machine the address changes a moment later.
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/niveaux'));
    expect(await screen.findByText('panel levels')).toBeInTheDocument();
  });

  it('names the certificates tab with the tenant wording and hides it without the flag', async () => {
    screenWidth(1280);
    withTenant({ certification: { allowed: true, type: 'attestation' } });
    renderAt('/validations');
    expect(screen.getByRole('link', { name: 'Attestations' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText('panel certificates')).toBeInTheDocument();
  });

  it('sends a hidden tab to /niveaux: certificates without the flag', async () => {
    screenWidth(1280);
    withTenant({ certification: { allowed: false, type: 'certification' } });
    renderAt('/validations');
    expect(await screen.findByText('panel levels')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/niveaux');
    expect(screen.queryByRole('link', { name: /Certifications/ })).not.toBeInTheDocument();
  });

  it('on a phone offers a labelled select without statistics, which navigates', async () => {
    screenWidth(375);
    withTenant();
    renderAt('/niveaux');
    expect(screen.queryByRole('navigation', { name: 'Dashboard sections' })).not.toBeInTheDocument();
    const select = screen.getByRole('combobox', { name: 'Dashboard sections' });
    const options = within(select).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Levels',
      'Jobs',
      'Certifications',
      'Logbook',
    ]);
    expect(select).toHaveValue('/niveaux');
    await userEvent.selectOptions(select, 'Logbook');
    expect(screen.getByTestId('where')).toHaveTextContent('/logbook');
    expect(await screen.findByText('panel logbook')).toBeInTheDocument();
  });

  it('sends /statistiques on a phone to /niveaux', async () => {
    screenWidth(375);
    withTenant();
    renderAt('/statistiques');
    expect(await screen.findByText('panel levels')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/niveaux');
  });
});
