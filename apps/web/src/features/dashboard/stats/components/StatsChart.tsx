import { formatDuration } from '@parcours/domain/statistics';
import type { BucketUnit } from '@parcours/domain/statistics';
import { useId, useState } from 'react';
import { useTranslation, dynamicKey } from '../../../../lib/i18n';
import type { ChartModel } from '../chart-data';
import { UPlotChart } from './UPlotChart';

interface StatsChartProps {
  model: ChartModel;
  unit: BucketUnit;
  /** Short names for the axis and long ones for the table, one per bucket. */
  axisLabels: readonly string[];
  tableLabels: readonly string[];
  /** Seconds per bucket, for the Temps table in docs/product.md §9 units. */
  seconds: readonly number[];
}

// Theme colours (app.css), one per series of a chart, readable on white.
const COLORS = ['--color-primary', '--color-accent', '--color-secondary'];

/**
 * One chart of the stats tab: a title, a legend whose entries show or hide their series, the
 * uPlot canvas, and the same figures as a table for screen readers (the canvas is silent).
 */
export function StatsChart({ model, unit, axisLabels, tableLabels, seconds }: StatsChartProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const title = t(`statistics.charts.${model.id}`);
  const seriesLabel = (id: string) => t(dynamicKey('statistics.series', id));

  const toggle = (id: string) =>
    setHidden((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const formatY = (v: number) =>
    model.id === 'progression' ? `${v} %` : model.id === 'time' ? `${v} min` : String(v);
  const cell = (seriesId: string, value: number | null, index: number): string => {
    if (model.id === 'time') return formatDuration(seconds[index] ?? 0);
    if (value === null) return t('statistics.table.none');
    return model.id === 'progression' ? `${value} %` : String(value);
  };

  return (
    <section className="stats-chart" aria-labelledby={headingId} data-chart={model.id}>
      <div className="stats-chart__head">
        <h3 id={headingId} className="stats-chart__title">
          {title}
        </h3>
        <ul className="stats-legend" aria-label={t('statistics.legend', { chart: title })}>
          {model.series.map((s, i) => (
            <li key={s.id}>
              <button
                type="button"
                className="stats-legend__item"
                aria-pressed={!hidden.has(s.id)}
                onClick={() => toggle(s.id)}
              >
                <span
                  className={`stats-legend__swatch stats-legend__swatch--${s.kind}`}
                  style={{ background: `var(${COLORS[i % COLORS.length] ?? '--color-primary'})` }}
                  aria-hidden="true"
                />
                {seriesLabel(s.id)}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <UPlotChart
        labels={axisLabels}
        yMax={model.yMax}
        formatY={formatY}
        series={model.series.map((s, i) => ({
          ...s,
          label: seriesLabel(s.id),
          color: COLORS[i % COLORS.length] ?? '--color-primary',
          shown: !hidden.has(s.id),
        }))}
      />
      <table className="sr-only">
        <caption>{t('statistics.table.caption', { chart: title })}</caption>
        <thead>
          <tr>
            <th scope="col">{t(`statistics.table.bucket.${unit}`)}</th>
            {model.series.map((s) => (
              <th key={s.id} scope="col">
                {seriesLabel(s.id)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tableLabels.map((label, i) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {model.series.map((s) => (
                <td key={s.id}>{cell(s.id, s.values[i] ?? null, i)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
