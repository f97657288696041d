import type { MeResponse } from '@parcours/domain/entities';
import { Button, Menu, MenuItem, MenuTrigger, Popover, Separator, type Key } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { useTranslation } from '../lib/i18n';
import { endSession } from '../lib/session';
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

/** SPEC §2 user menu: profile, dashboard, my courses, legal mentions, data protection, sign out. */
export function UserMenu({ user }: { user: MeResponse }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const name = user.profile.displayName || user.profile.email;

  const onAction = (key: Key) => {
    if (key === 'logout') {
      endSession();
      void navigate(LOGIN_PATH);
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
          <MenuItem id="logout" className="user-menu__item user-menu__item--logout">
            {t('userMenu.logout')}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
