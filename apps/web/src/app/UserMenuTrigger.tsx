import type { MeResponse } from '@parcours/domain/entities';
import { useState, type ComponentType, type KeyboardEvent } from 'react';
import { useTranslation } from '../lib/i18n';
import type { MenuFocus, UserMenuProps } from './UserMenu';
import './user-menu.css';

/**
 * The user menu's trigger as a plain button, so that React Aria's menu, popover and focus code
 * (~40 kB) stay out of the first load of every signed-in screen (decision 0021). The menu's
 * module is fetched when the pointer or the focus comes to the button, and the real menu takes
 * the button's place, opened, on the first press (focus on its first item, or the last with
 * ArrowUp), then works as a React Aria menu from there on.
 */
type Loaded = ComponentType<UserMenuProps>;

let loading: Promise<Loaded | null> | null = null;

export function loadUserMenu(): Promise<Loaded | null> {
  loading ??= import('./UserMenu').then(
    (module) => module.UserMenu,
    () => {
      // Offline or a new version: the button stays and the next press tries again.
      loading = null;
      return null;
    },
  );
  return loading;
}

export function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

/** What the button shows, the same in the plain trigger and in React Aria's. */
export function UserMenuLabel({ user }: { user: MeResponse }) {
  const { t } = useTranslation();
  const name = user.profile.displayName || user.profile.email;
  return (
    <>
      <span className="user-menu__avatar" aria-hidden="true">
        {initials(name)}
      </span>
      <span className="sr-only">{t('userMenu.label')}</span> <span className="user-menu__name">{name}</span>
      <span className="user-menu__chevron" aria-hidden="true">
        ▾
      </span>
    </>
  );
}

export function UserMenuTrigger({ user }: { user: MeResponse }) {
  // The shell keeps this component for the whole session: once pressed, the real menu stays.
  const [menu, setMenu] = useState<{ Menu: Loaded; openWith: MenuFocus } | null>(null);
  const [busy, setBusy] = useState(false);

  if (menu) return <menu.Menu user={user} openWith={menu.openWith} />;

  const open = (openWith: MenuFocus) => {
    setBusy(true);
    void loadUserMenu().then((Menu) => {
      setBusy(false);
      if (Menu) setMenu({ Menu, openWith });
    });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // As React Aria's menu button: the arrows open the menu too.
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    open(event.key === 'ArrowUp' ? 'last' : 'first');
  };

  return (
    <button
      type="button"
      className="user-menu__button"
      aria-haspopup="true"
      aria-expanded="false"
      aria-busy={busy || undefined}
      onPointerEnter={() => void loadUserMenu()}
      onFocus={() => void loadUserMenu()}
      onClick={() => open('first')}
      onKeyDown={onKeyDown}
    >
      <UserMenuLabel user={user} />
    </button>
  );
}
