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
import { useNavigate } from 'react-router';
import { apiFetch } from '../lib/api-client';
import { changeLanguage, useTranslation } from '../lib/i18n';
import { endSession, getSignOutGuard, setSessionUser } from '../lib/session';
import { LOGIN_PATH } from './navigation';
import './user-menu.css';

const DESTINATIONS: Record<string, string> = {
  profile: '/me',
  dashboard: '/tableau-de-bord',
  courses: '/',
  mentions: '/legal/mentions',
  protection: '/legal/protection-des-donnees',
};

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

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
 * SPEC §2 user menu: profile, dashboard, my courses, legal mentions, data protection, sign out;
 * and the interface language (issue 12).
 */
export function UserMenu({ user }: { user: MeResponse }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const name = user.profile.displayName || user.profile.email;

  const onAction = (key: Key) => {
    if (key === 'logout') {
      const signOut = () => {
        endSession();
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
    <MenuTrigger>
      <Button className="user-menu__button">
        <span className="user-menu__avatar" aria-hidden="true">
          {initials(name)}
        </span>
        <span className="sr-only">{t('userMenu.label')}</span> <span className="user-menu__name">{name}</span>
        <span className="user-menu__chevron" aria-hidden="true">
          ▾
        </span>
      </Button>
      <Popover className="user-menu__popover" placement="bottom end">
        <Menu className="user-menu__list" onAction={onAction} aria-label={t('userMenu.label')}>
          <MenuItem id="profile" className="user-menu__item">
            {t('userMenu.profile')}
          </MenuItem>
          <MenuItem id="dashboard" className="user-menu__item">
            {t('userMenu.dashboard')}
          </MenuItem>
          <MenuItem id="courses" className="user-menu__item">
            {t('userMenu.courses')}
          </MenuItem>
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
              <MenuItem key={lang} id={lang} lang={lang} className="user-menu__item user-menu__item--choice">
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
  );
}
