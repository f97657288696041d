import type { Locale, MeResponse } from '@parcours/domain/entities';
import { LOCALES } from '@parcours/domain/entities';
import {
  Button,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Separator,
  type Key,
  type Selection,
} from 'react-aria-components';
import { AriaLocale } from '../components/ui/AriaLocale';
import { useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTeaches } from '../features/teaching/teaches';
import { apiFetch } from '../lib/api-client';
import { changeLanguage, useTranslation } from '../lib/i18n';
import { getSignOutGuard, setSessionUser, signOut as endThisSession } from '../lib/session';
import { LOGIN_PATH } from './navigation';
import { UserMenuLabel } from './UserMenuTrigger';
import './user-menu.css';

/** Where the focus goes when the menu opens from the plain trigger (UserMenuTrigger). */
export type MenuFocus = 'first' | 'last';

export interface UserMenuProps {
  user: MeResponse;
  /** Open at once, as the plain trigger was pressed while this module loaded. */
  openWith?: MenuFocus | null;
}

const DESTINATIONS: Record<string, string> = {
  profile: '/me',
  dashboard: '/tableau-de-bord',
  courses: '/',
  teaching: '/enseignement',
  mentions: '/legal/mentions',
  protection: '/legal/protection-des-donnees',
};

/**
 * The language chosen here is the user's from now on: it is saved on their account
 * (preferredLocale, which their e-mails follow too) and applied at every sign-in, on any device.
 */
async function chooseLanguage(user: MeResponse, lang: Locale): Promise<void> {
  await changeLanguage(lang);
  if (user.profile.preferredLocale === lang) return;
  try {
    const saved = await apiFetch<MeResponse>(`users/${encodeURIComponent(user._id)}`, {
      method: 'PATCH',
      body: { preferredLocale: lang },
    });
    setSessionUser(saved);
  } catch {
    // The screen already speaks the chosen language; the next sign-in falls back to the browser's.
  }
}

/**
 * docs/product.md §2 user menu: profile, dashboard, my courses, legal mentions, data protection, sign out;
 * and the interface language (issue 12).
 */
export function UserMenu({ user, openWith = null }: UserMenuProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const teacher = useTeaches(user._id);
  const button = useRef<HTMLButtonElement>(null);
  // Open or not; `focus` only for the opening asked by the plain trigger, later openings follow
  // React Aria's own keys (ArrowUp: last item...).
  const [open, setOpen] = useState<{ focus?: MenuFocus } | null>(null);

  // The plain trigger was pressed: this button took its place. Focus it first (a DOM change the
  // state cannot express), so that the popover gives the focus back to it on closing, then open.
  useLayoutEffect(() => {
    if (!openWith) return;
    button.current?.focus();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- must follow the focus above
    setOpen({ focus: openWith });
  }, [openWith]);

  const onAction = (key: Key) => {
    if (key === 'logout') {
      const signOut = () => {
        endThisSession();
        void navigate(LOGIN_PATH);
      };
      // Offline answers still on the device are sent first, or their loss confirmed (decision 0013).
      const guard = getSignOutGuard();
      if (guard) void guard().then((go) => go && signOut(), signOut);
      else signOut();
      return;
    }
    const to = DESTINATIONS[String(key)];
    if (to) void navigate(to);
  };

  return (
    <AriaLocale>
      <MenuTrigger isOpen={open !== null} onOpenChange={(isOpen) => setOpen(isOpen ? {} : null)}>
        <Button ref={button} className="user-menu__button">
          <UserMenuLabel user={user} />
        </Button>
        <Popover className="user-menu__popover" placement="bottom end">
          <Menu
            className="user-menu__list"
            onAction={onAction}
            aria-label={t('userMenu.label')}
            // React Aria's focus strategy of an opening menu (which item), not the HTML attribute.
            // eslint-disable-next-line jsx-a11y/no-autofocus
            autoFocus={open?.focus}
          >
            <MenuItem id="profile" className="user-menu__item">
              {t('userMenu.profile')}
            </MenuItem>
            <MenuItem id="dashboard" className="user-menu__item">
              {t('userMenu.dashboard')}
            </MenuItem>
            <MenuItem id="courses" className="user-menu__item">
              {t('userMenu.courses')}
            </MenuItem>
            {teacher ? (
              <MenuItem id="teaching" className="user-menu__item">
                {t('userMenu.teaching')}
              </MenuItem>
            ) : null}
            <Separator className="user-menu__separator" />
            <MenuItem id="mentions" className="user-menu__item">
              {t('userMenu.legalMentions')}
            </MenuItem>
            <MenuItem id="protection" className="user-menu__item">
              {t('userMenu.dataProtection')}
            </MenuItem>
            <Separator className="user-menu__separator" />
            <MenuSection
              selectionMode="single"
              disallowEmptySelection
              selectedKeys={[i18n.language]}
              onSelectionChange={(keys: Selection) => {
                const next = keys === 'all' ? null : [...keys][0];
                if (typeof next === 'string' && (LOCALES as readonly string[]).includes(next))
                  void chooseLanguage(user, next as Locale);
              }}
            >
              <Header className="user-menu__header">{t('userMenu.language')}</Header>
              {LOCALES.map((lang) => (
                <MenuItem
                  key={lang}
                  id={lang}
                  lang={lang}
                  className="user-menu__item user-menu__item--choice"
                >
                  {({ isSelected }) => (
                    <>
                      <span className="user-menu__check" aria-hidden="true">
                        {isSelected ? '✓' : ''}
                      </span>
                      {t(`userMenu.languages.${lang}`)}
                    </>
                  )}
                </MenuItem>
              ))}
            </MenuSection>
            <Separator className="user-menu__separator" />
            <MenuItem id="logout" className="user-menu__item user-menu__item--logout">
              {t('userMenu.logout')}
            </MenuItem>
          </Menu>
        </Popover>
      </MenuTrigger>
    </AriaLocale>
  );
}
