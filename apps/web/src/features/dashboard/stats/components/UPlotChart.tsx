import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartSeries } from '../chart-data';

export interface PlotSeries extends ChartSeries {
  label: string;
  /** A CSS custom property of the theme (`--color-primary`) or a colour. */
  color: string;
  shown: boolean;
}

interface UPlotChartProps {
  /** Axis names of the buckets, in order. */
  labels: readonly string[];
  series: readonly PlotSeries[];
  yMax: number | null;
  formatY: (value: number) => string;
  height?: number;
}

const DEFAULT_WIDTH = 640;
const LABEL_SPACE = 84; // px an x label needs; fewer labels when the buckets are narrower

function resolveColor(color: string, element: Element): string {
  if (!color.startsWith('--')) return color;
  const value = getComputedStyle(element).getPropertyValue(color).trim();
  return value || '#1d4ed8';
}

/**
 * A uPlot canvas (bars and lines over categorical buckets). The canvas is hidden from assistive
 * technologies: the data table beside it says the same. Showing or hiding a series does not
 * rebuild the chart; new data or series do.
 */
export function UPlotChart({ labels, series, yMax, formatY, height = 220 }: UPlotChartProps) {
  const target = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shownKey = series.map((s) => (s.shown ? 1 : 0)).join(',');
  const dataKey = JSON.stringify([
    labels,
    series.map((s) => [s.id, s.kind, s.label, s.color, s.values]),
    yMax,
    height,
  ]);

  useEffect(() => {
    const el = target.current;
    if (!el) return undefined;
    const n = labels.length;
    const width = el.clientWidth || DEFAULT_WIDTH;
    const bars = uPlot.paths.bars?.({ size: [series.length > 1 ? 0.5 : 0.6, 48] });
    const opts: uPlot.Options = {
      width,
      height,
      legend: { show: false },
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: [-0.5, n - 0.5] },
        y: { range: (_u, _min, max) => [0, yMax ?? Math.max(1, Math.ceil(max * 1.1))] },
      },
      axes: [
        {
          grid: { show: false },
          splits: (u) => {
            const room = Math.max(1, Math.floor(u.bbox.width / (window.devicePixelRatio || 1) / LABEL_SPACE));
            const step = Math.max(1, Math.ceil(n / room));
            const out: number[] = [];
            for (let i = n - 1; i >= 0; i -= step) out.unshift(i);
            return out;
          },
          values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
        },
        { values: (_u, splits) => splits.map((v) => formatY(v)), size: 56 },
      ],
      series: [
        {},
        ...series.map((s): uPlot.Series => {
          const color = resolveColor(s.color, el);
          return s.kind === 'bar'
            ? {
                label: s.label,
                stroke: color,
                fill: color,
                width: 0,
                paths: bars,
                show: s.shown,
                points: { show: false },
              }
            : {
                label: s.label,
                stroke: color,
                width: 2,
                show: s.shown,
                points: { show: true, size: 6 },
                spanGaps: true,
              };
        }),
      ],
    };
    const data = [labels.map((_, i) => i), ...series.map((s) => s.values)] as uPlot.AlignedData;
    const u = new uPlot(opts, data, el);
    plot.current = u;
    let observer: ResizeObserver | undefined;
    if (typeof ResizeObserver !== 'undefined') {
      observer = new ResizeObserver(() => {
        const w = el.clientWidth;
        if (w > 0 && w !== u.width) u.setSize({ width: w, height });
      });
      observer.observe(el);
    }
    return () => {
      observer?.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Rebuilt only when what is drawn changes (dataKey); showing or hiding a series is the
    // effect below, and formatY is a pure formatter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dataKey]);

  useEffect(() => {
    const u = plot.current;
    if (!u) return;
    shownKey.split(',').forEach((flag, i) => {
      const show = flag === '1';
      if (u.series[i + 1]?.show !== show) u.setSeries(i + 1, { show });
    });
  }, [shownKey]);

  return <div ref={target} className="stats-chart__canvas" aria-hidden="true" />;
}
