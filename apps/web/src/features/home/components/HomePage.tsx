import { BREAKPOINTS } from '@parcours/domain/constants';
import { readErrorCode } from '@parcours/domain/errors';
import { clampPage, DASHBOARD_PAGE_SIZE, pageCount, pageOf, slicePage } from '@parcours/domain/pagination';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/Alert';
import { Pager } from '../../../components/ui/Pager';
import { Spinner } from '../../../components/ui/Spinner';
import { firstScreenShown } from '../../../lib/after-first-screen';
import { errorKeys, useTranslation } from '../../../lib/i18n';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useSession } from '../../../lib/session';
import { getActiveLesson } from '../../../lib/storage';
import { useTenant } from '../../../lib/tenant';
import { useClassUsers } from '../api/get-class-users';
import { useCompetencies } from '../api/get-competencies';
import { useLessons } from '../api/get-lessons';
import { useKeptSince } from '../api/kept-reads';
import { homeKeys } from '../api/query-keys';
import {
  buildClassViews,
  competencyIdsOf,
  DEFAULT_FILTERS,
  filterClasses,
  hasActiveFilter,
  nextOpeningDelay,
  programOptions,
  type ClassView,
  type HomeFilters as Filters,
  type PeriodFilter,
} from '../model';
import { ClassCard } from './ClassCard';
import { EmptyState, type EmptyVariant } from './EmptyState';
import { HomeFilters } from './HomeFilters';
import { ResumeCard } from './ResumeCard';
import '../home.css';

// Loaded with this screen's code, so the first screen can fill the cache first (decision 0030).
export { loadHomeReads } from '../api/prefetch-home';

const PERIODS = new Set<PeriodFilter>(['active', 'next', 'past']);

function readFilters(params: URLSearchParams): Filters {
  const period = params.get('period') as PeriodFilter | null;
  return {
    period: period && PERIODS.has(period) ? period : 'active',
    programId: params.get('program') || null,
    competencyId: params.get('competency') || null,
  };
}

function writeFilters(filters: Filters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.period !== 'active') params.set('period', filters.period);
  if (filters.programId) params.set('program', filters.programId);
  if (filters.competencyId) params.set('competency', filters.competencyId);
  return params;
}

interface HomePageProps {
  /**
   * Extra actions of a class card, composed by the app layer (e.g. contacting the teachers),
   * so this feature does not depend on the features that provide them.
   */
  classActions?: (view: ClassView) => ReactNode;
}

/** docs/product.md §2 home: the learner's classes, 5 a page, filters, restored page, empty states. */
export function HomePage({ classActions }: HomePageProps = {}) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const tenant = useTenant();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const userId = session.user?._id ?? '';
  const name = session.user?.profile.displayName ?? '';
  const isSmallScreen = useMediaQuery(`(max-width: ${BREAKPOINTS.xs - 0.02}px)`);
  const summaryRef = useRef<HTMLParagraphElement>(null);

  const classUsers = useClassUsers(filters.period === 'past');
  const lessons = useLessons(userId);
  // Offline, the reads come from the copy kept on the device: the note says so and as of when.
  const keptSince = useKeptSince();
  // Periods are judged at the time of the latest answer, so each 20 s refresh also moves a class
  // from "next" to "current" when its day comes.
  const lastUpdate = Math.max(classUsers.dataUpdatedAt, lessons.dataUpdatedAt);
  const now = useMemo(() => new Date(lastUpdate), [lastUpdate]);

  const views = useMemo(
    () => (classUsers.data && lessons.data ? buildClassViews(classUsers.data, lessons.data, now) : null),
    [classUsers.data, lessons.data, now],
  );
  const available = useMemo(
    () => (views && isSmallScreen ? views.filter((view) => view.mobileAllowed) : (views ?? [])),
    [views, isSmallScreen],
  );
  const hiddenOnSmallScreen = (views?.length ?? 0) - available.length;
  const competencyIds = useMemo(() => competencyIdsOf(available), [available]);
  const competencies = useCompetencies(competencyIds, filters.competencyId !== null);
  const competencyList = useMemo(
    () =>
      (competencies.data ?? []).map((c) => ({
        id: c.id,
        parentId: c.attributes.parentId,
        title: c.attributes.title,
      })),
    [competencies.data],
  );
  const filtered = useMemo(
    () => filterClasses(available, filters, competencyList),
    [available, filters, competencyList],
  );

  // docs/product.md §4: a class (or a class-program) that has not opened yet refreshes at its start plus 200 ms.
  useEffect(() => {
    if (!views) return undefined;
    const delay = nextOpeningDelay(views, new Date());
    if (delay === null) return undefined;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: homeKeys.all }), delay);
    return () => clearTimeout(timer);
  }, [views, queryClient]);

  const total = filtered.length;
  const pages = pageCount(total, DASHBOARD_PAGE_SIZE);
  const requestedPage = Number(params.get('page'));
  // docs/product.md §2: without an explicit page, show the page holding the last class the learner opened.
  const restoredPage = useMemo(() => {
    const active = getActiveLesson();
    return active
      ? pageOf(
          filtered.findIndex((view) => view.id === active.classId),
          DASHBOARD_PAGE_SIZE,
        )
      : 1;
  }, [filtered]);
  const page = clampPage(requestedPage > 0 ? requestedPage : restoredPage, total, DASHBOARD_PAGE_SIZE);
  const shown = slicePage(filtered, page, DASHBOARD_PAGE_SIZE);

  const changeFilters = (next: Filters) => setParams(writeFilters(next));
  const changePage = (next: number) => {
    const nextParams = writeFilters(filters);
    nextParams.set('page', String(next));
    setParams(nextParams);
    summaryRef.current?.focus();
  };

  const error = classUsers.error ?? lessons.error;
  const loading = !views && !error;
  // Issue 11: the offline sync, the service worker and the device copy wait for this.
  useEffect(() => {
    if (!loading) firstScreenShown();
  }, [loading]);

  let emptyVariant: EmptyVariant | null = null;
  if (views && total === 0) {
    if (hiddenOnSmallScreen > 0 && available.length === 0) emptyVariant = 'smallScreen';
    else if (filters.period === 'past' && !filters.programId && !filters.competencyId) emptyVariant = 'past';
    else if (hasActiveFilter(filters)) emptyVariant = 'filtered';
    else emptyVariant = 'welcome';
  }

  const first = (page - 1) * DASHBOARD_PAGE_SIZE + 1;
  const last = Math.min(total, page * DASHBOARD_PAGE_SIZE);

  return (
    <div className="page home">
      <div className="home__intro">
        <h1>{t('home.title')}</h1>
        {name ? <p className="home__greeting">{t('home.greeting', { name })}</p> : null}
      </div>

      {keptSince ? (
        <Alert tone="info" className="home__kept" title={t('home.offline.title')}>
          <p>
            {t('home.offline.text', {
              date: new Intl.DateTimeFormat(i18n.language, {
                dateStyle: 'medium',
                timeStyle: 'short',
              }).format(new Date(keptSince)),
            })}
          </p>
        </Alert>
      ) : null}

      <ResumeCard views={views ? available : null} lessons={lessons.data} />

      <HomeFilters
        filters={filters}
        programs={programOptions(
          available.filter((view) => (filters.period === 'past') === (view.period === 'past')),
        )}
        competencies={competencyList}
        onChange={changeFilters}
        programsPending={loading}
        competenciesPending={
          loading || (competencyIds.length > 0 && !competencies.data && !competencies.error)
        }
      />

      {loading ? (
        // Holds about the room of the first class cards, so the footer does not jump when they come.
        <div className="home__loading">
          <Spinner label={t('home.loading')} />
        </div>
      ) : null}
      {error ? (
        <Alert tone="error" title={t(errorKeys(readErrorCode(error) ?? 'UNDEFINED').title)}>
          <p>{t(errorKeys(readErrorCode(error) ?? 'UNDEFINED').message)}</p>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={() => void queryClient.invalidateQueries({ queryKey: homeKeys.all })}
          >
            {t('common.retry')}
          </button>
        </Alert>
      ) : null}

      {hiddenOnSmallScreen > 0 && total > 0 ? (
        <Alert tone="info">{t('home.empty.smallScreenText')}</Alert>
      ) : null}

      {emptyVariant ? (
        <EmptyState
          variant={emptyVariant}
          name={name}
          emailNotifications={tenant?.attributes.settings?.emailNotifications ?? false}
          demoVideoUrl={tenant?.attributes.settings?.demoVideoUrl ?? null}
          onClearFilters={() => changeFilters(DEFAULT_FILTERS)}
        />
      ) : null}

      {views && total > 0 ? (
        <>
          <p ref={summaryRef} tabIndex={-1} className="home__summary" aria-live="polite">
            {t('home.summary', { first, last, count: total })}
          </p>
          <ul className="home__classes">
            {shown.map((view) => (
              <li key={view.id}>
                <ClassCard view={view} actions={classActions?.(view)} />
              </li>
            ))}
          </ul>
          <Pager page={page} pageCount={pages} onChange={changePage} label={t('home.pagerLabel')} />
        </>
      ) : null}
    </div>
  );
}
