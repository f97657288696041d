import { Select } from '../../../components/ui/Select';
import { useTranslation } from '../../../lib/i18n';
import type { HomeFilters as Filters, PeriodFilter } from '../model';

const PERIODS: readonly PeriodFilter[] = ['active', 'next', 'past'];
const ALL = 'all';

interface HomeFiltersProps {
  filters: Filters;
  programs: readonly { id: string; name: string }[];
  competencies: readonly { id: string; title: string }[];
  onChange: (next: Filters) => void;
  /**
   * Options still loading: the select keeps its place with its "all" choice only, so that the
   * classes below do not move down when the options arrive (layout shift).
   */
  programsPending?: boolean;
  competenciesPending?: boolean;
}

/** docs/product.md §2 filters: past classes, next classes, by program, by competency. */
export function HomeFilters({
  filters,
  programs,
  competencies,
  onChange,
  programsPending = false,
  competenciesPending = false,
}: HomeFiltersProps) {
  const { t } = useTranslation();
  return (
    <div className="home-filters">
      <div className="home-filters__periods" role="group" aria-label={t('home.filters.period')}>
        {PERIODS.map((period) => (
          <button
            key={period}
            type="button"
            className="toggle"
            aria-pressed={filters.period === period}
            onClick={() => onChange({ ...filters, period })}
          >
            {t(`home.filters.periods.${period}`)}
          </button>
        ))}
      </div>
      {programsPending || programs.length > 0 ? (
        <Select
          label={t('home.filters.program')}
          value={filters.programId ?? ALL}
          options={[
            { id: ALL, label: t('home.filters.allPrograms') },
            ...programs.map((p) => ({ id: p.id, label: p.name })),
          ]}
          onChange={(id) => onChange({ ...filters, programId: id === ALL ? null : id })}
        />
      ) : null}
      {competenciesPending || competencies.length > 0 ? (
        <Select
          label={t('home.filters.competency')}
          value={filters.competencyId ?? ALL}
          options={[
            { id: ALL, label: t('home.filters.allCompetencies') },
            ...competencies.map((c) => ({ id: c.id, label: c.title })),
          ]}
          onChange={(id) => onChange({ ...filters, competencyId: id === ALL ? null : id })}
        />
      ) : null}
    </div>
  );
}
