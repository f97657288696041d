import { Suspense, useId, type ChangeEvent, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useTenant } from '../../../lib/tenant';
import {
  DASHBOARD_TABS,
  DEFAULT_TAB_PATH,
  DESKTOP_QUERY,
  visibleTabs,
  type DashboardTab,
  type TabContext,
} from '../tabs';
import '../dashboard.css';

interface DashboardPageProps {
  /** Shown beside the title (the learner's XP), composed by the route. */
  aside?: ReactNode;
  /** The tab registry; tests pass their own panels. */
  tabs?: readonly DashboardTab[];
}

/**
 * The dashboard shell (SPEC §2): a title, the visible tabs as links (a select under 768 px) and
 * the current tab's lazily loaded panel. A tab this learner cannot see sends to /niveaux.
 */
export function DashboardPage({ aside, tabs: registry = DASHBOARD_TABS }: DashboardPageProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const tenant = useTenant();
  const ctx: TabContext = { desktop, settings: tenant?.attributes.settings };
  const tabs = visibleTabs(ctx, registry);
  const current = tabs.find((tab) => tab.path === pathname);
  const headingId = useId();

  if (!current) return <Navigate to={DEFAULT_TAB_PATH} replace />;
  const label = (tab: DashboardTab) => t(tab.labelKey(ctx));

  return (
    <div className="page dashboard">
      <div className="dashboard__header">
        <h1 className="dashboard__title">{t('dashboard.title')}</h1>
        {aside}
      </div>
      {desktop ? (
        <TabLinks tabs={tabs} current={current} label={label} />
      ) : (
        <TabSelect tabs={tabs} current={current} label={label} />
      )}
      <section className="dashboard__panel" aria-labelledby={headingId}>
        <h2 id={headingId} className="dashboard__panel-title">
          {label(current)}
        </h2>
        <Suspense fallback={<Spinner label={t('common.loading')} />}>
          <current.Panel />
        </Suspense>
      </section>
    </div>
  );
}

interface TabChooserProps {
  tabs: DashboardTab[];
  current: DashboardTab;
  label: (tab: DashboardTab) => string;
}

/** Tabs that are links: each a real URL, the current one marked for assistive technologies. */
function TabLinks({ tabs, current, label }: TabChooserProps) {
  const { t } = useTranslation();
  return (
    <nav className="dashboard__tabs" aria-label={t('dashboard.tabsLabel')}>
      <ul className="dashboard__tab-list">
        {tabs.map((tab) => (
          <li key={tab.id}>
            <Link
              to={tab.path}
              className="dashboard__tab"
              aria-current={tab.id === current.id ? 'page' : undefined}
            >
              {label(tab)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** SPEC §2: on small screens the tabs are offered as a select; choosing navigates. */
function TabSelect({ tabs, current, label }: TabChooserProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useId();
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => void navigate(event.target.value);
  return (
    <div className="dashboard__tab-select">
      <label htmlFor={id}>{t('dashboard.tabsLabel')}</label>
      <select id={id} value={current.path} onChange={onChange}>
        {tabs.map((tab) => (
          <option key={tab.id} value={tab.path}>
            {label(tab)}
          </option>
        ))}
      </select>
    </div>
  );
}
