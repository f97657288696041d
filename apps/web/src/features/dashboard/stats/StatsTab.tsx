import {
  DEFAULT_STATISTICS_PERIOD,
  formatDuration,
  type StatisticsPeriod,
} from '@parcours/domain/statistics';
import { useMemo, useState } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import { browserTimeZone, useStatistics } from './api/get-statistics';
import { bucketLabel, chartModels, isEmpty } from './chart-data';
import { PeriodPicker } from './components/PeriodPicker';
import { StatsChart } from './components/StatsChart';
import './stats.css';

/**
 * The dashboard's stats tab (docs/product.md §2 "Stats"): pages done ('grains') and time spent over a
 * period preset (§9, the first by default), then the Activité, Progression and Temps charts.
 * Rendered by the dashboard shell inside its tab panel, under its <h2>.
 */
export function StatsTab() {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<StatisticsPeriod>(DEFAULT_STATISTICS_PERIOD);
  const [timeZone] = useState(browserTimeZone);
  const query = useStatistics(period, timeZone);
  const stats = query.data?.attributes;

  const view = useMemo(() => {
    if (!stats) return null;
    const unit = stats.buckets[0]?.unit ?? 'day';
    const name = (key: string, long: boolean) => {
      const date = bucketLabel(key, unit, i18n.language, long);
      // The axis has room for the Monday's date only; the table says "week of".
      return unit === 'week' && long ? t('statistics.weekOfLong', { date }) : date;
    };
    return {
      unit,
      models: chartModels(stats.buckets),
      axisLabels: stats.buckets.map((b) => name(b.key, false)),
      tableLabels: stats.buckets.map((b) => name(b.key, true)),
      seconds: stats.buckets.map((b) => b.timeSpent),
      empty: isEmpty(stats.buckets),
    };
  }, [stats, i18n.language, t]);

  return (
    <div className="stats">
      <PeriodPicker value={period} onChange={setPeriod} />
      {query.isError ? (
        <Alert tone="error" title={t('statistics.error')} />
      ) : !stats || !view ? (
        <Spinner label={t('common.loading')} />
      ) : (
        <div aria-busy={query.isPlaceholderData} className="stats__body">
          <dl className="stats-summary">
            <div className="stats-summary__item">
              <dt>{t('statistics.grains')}</dt>
              <dd>{stats.grains}</dd>
            </div>
            <div className="stats-summary__item">
              <dt>{t('statistics.timeSpent')}</dt>
              <dd>{formatDuration(stats.timeSpent)}</dd>
            </div>
          </dl>
          {view.empty ? (
            <div className="stats-empty card centered" role="status">
              <h3>{t('statistics.empty.title')}</h3>
              <p>{t(period === '1y' ? 'statistics.empty.never' : 'statistics.empty.period')}</p>
            </div>
          ) : (
            view.models.map((model) => (
              <StatsChart
                key={model.id}
                model={model}
                unit={view.unit}
                axisLabels={view.axisLabels}
                tableLabels={view.tableLabels}
                seconds={view.seconds}
              />
            ))
          )}
        </div>
      )}
    </div>
  );
}
