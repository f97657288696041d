import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { getSession, loadUser } from '../lib/session';
import { setToken } from '../lib/storage';
import { mockApi } from '../test/api-mock';
import { me } from '../test/fixtures';
import { UserMenuTrigger } from './UserMenuTrigger';

/**
 * Decision 0021: the user menu's trigger is a plain button and React Aria's menu loads on the
 * first press (the shell mounts the trigger once per session: each test starts from the plain one).
 */
function renderTrigger() {
  render(
    <MemoryRouter>
      <UserMenuTrigger user={getSession().user!} />
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: 'User menu Jane Doe' });
}

describe('user menu trigger', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    setToken('t');
    mockApi({ 'users/me': { body: me() } });
    await loadUser();
  });

  it('is a menu button before the menu loads, and Enter opens it on the first item', async () => {
    const trigger = renderTrigger();
    expect(trigger.tagName).toBe('BUTTON');
    expect(trigger).toHaveAttribute('aria-haspopup', 'true');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await userEvent.tab();
    expect(trigger).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    // The menu's module loads on this first press: slow on a busy machine.
    const first = await screen.findByRole('menuitem', { name: 'My profile' }, { timeout: 15_000 });
    await vi.waitFor(() => expect(first).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Dashboard' })).toHaveFocus();
  });

  it('gives the focus back to the button when Escape closes the menu', async () => {
    renderTrigger();
    await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(screen.getByRole('menuitem', { name: 'My profile' })).toHaveFocus(), {
      timeout: 15_000,
    });
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    const button = screen.getByRole('button', { name: 'User menu Jane Doe' });
    // React Aria gives the focus back in the next animation frame.
    await vi.waitFor(() => expect(button).toHaveFocus());
    expect(button).toHaveAttribute('aria-expanded', 'false');
    // From now on it is React Aria's menu button: the next press opens it again.
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(screen.getByRole('menuitem', { name: 'My profile' })).toHaveFocus());
  });

  it('ArrowUp opens it on the last item, and a click opens it too', async () => {
    const trigger = renderTrigger();
    trigger.focus();
    await userEvent.keyboard('{ArrowUp}');
    const last = await screen.findByRole('menuitem', { name: 'Sign out' }, { timeout: 15_000 });
    await vi.waitFor(() => expect(last).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'User menu Jane Doe' }));
    expect(await screen.findAllByRole('menuitem')).toHaveLength(6);
  });
});
