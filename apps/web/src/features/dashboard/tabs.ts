/**
 * The dashboard's tabs (docs/product.md §2 "Dashboard tabs"), as registry entries like the exercise rows
 * (docs/architecture.md §5): a tab is its route, its label, its lazily loaded panel and the rule that says
 * whether this learner on this screen sees it. The shell renders whatever is visible, in order.
 *
 * A tab panel renders inside the shell's `<section>`, under the shell's `<h2>` naming the tab:
 * panels start their own headings at `<h3>`.
 */
import { type TranslationKey } from '../../lib/i18n';
import type { ContextSettings } from '@parcours/domain/entities';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type DashboardTabId = 'levels' | 'jobs' | 'stats' | 'certificates' | 'logbook';

/** What a visibility rule or a label may depend on. */
export interface TabContext {
  /** At least the docs/product.md §9 xs breakpoint (768 px). */
  desktop: boolean;
  settings: ContextSettings | undefined;
}

export interface DashboardTab {
  id: DashboardTabId;
  path: string;
  /** Translation key of the tab's name (may depend on the tenant's wording). */
  labelKey: (ctx: TabContext) => TranslationKey;
  Panel: LazyExoticComponent<ComponentType>;
  isVisible: (ctx: TabContext) => boolean;
}

/** docs/product.md §9 breakpoint xs: below it the tabs become a select and statistics are not offered. */
export const DESKTOP_QUERY = '(min-width: 768px)';
export const DEFAULT_TAB_PATH = '/niveaux';

function panel<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const always = () => true;

export const DASHBOARD_TABS: readonly DashboardTab[] = [
  {
    id: 'levels',
    path: '/niveaux',
    labelKey: () => 'dashboard.tabs.levels',
    Panel: panel(() => import('./levels/LevelsTab'), 'LevelsTab'),
    isVisible: always,
  },
  {
    id: 'jobs',
    path: '/metiers',
    labelKey: () => 'dashboard.tabs.jobs',
    Panel: panel(() => import('./jobs/JobsTab'), 'JobsTab'),
    isVisible: always,
  },
  {
    id: 'stats',
    path: '/statistiques',
    labelKey: () => 'dashboard.tabs.stats',
    Panel: panel(() => import('./stats/StatsTab'), 'StatsTab'),
    // docs/product.md §2: desktop only (the charts need the width).
    isVisible: (ctx) => ctx.desktop,
  },
  {
    id: 'certificates',
    path: '/validations',
    // docs/product.md §9: the tenant says "certification" or "attestation" (default certification).
    labelKey: (ctx) =>
      ctx.settings?.certification?.type === 'attestation'
        ? 'dashboard.tabs.attestation'
        : 'dashboard.tabs.certification',
    Panel: panel(() => import('./certificates/CertificatesTab'), 'CertificatesTab'),
    // docs/product.md §6: gated by the context flag.
    isVisible: (ctx) => ctx.settings?.certification?.allowed === true,
  },
  {
    id: 'logbook',
    path: '/logbook',
    labelKey: () => 'dashboard.tabs.logbook',
    Panel: panel(() => import('./logbook/LogbookTab'), 'LogbookTab'),
    isVisible: always,
  },
];

export function visibleTabs(ctx: TabContext, tabs: readonly DashboardTab[] = DASHBOARD_TABS): DashboardTab[] {
  return tabs.filter((tab) => tab.isVisible(ctx));
}
