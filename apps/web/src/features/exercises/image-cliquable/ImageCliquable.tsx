import type { KeyboardEvent } from 'react';
import { CorrectionMark, type CorrectionStatus } from '../../../components/ui/CorrectionMark';
import { useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';
import { asIndexList, itemStatuses } from '../shared/answers';
import { fileUrl } from '../shared/file-url';

/** SPEC §9: clickable images are drawn in a viewBox 808 wide. */
const VIEWBOX_WIDTH = 808;

interface Zone {
  shape?: unknown;
  label?: unknown;
  value?: unknown;
  cx?: unknown;
  cy?: unknown;
  r?: unknown;
  x?: unknown;
  y?: unknown;
  width?: unknown;
  height?: unknown;
  points?: unknown;
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v) || 0);

function ZoneShape({ zone }: { zone: Zone }) {
  if (zone.shape === 'circle')
    return <circle className="zone__shape" cx={num(zone.cx)} cy={num(zone.cy)} r={num(zone.r)} />;
  if (zone.shape === 'polygon')
    return (
      <polygon
        className="zone__shape"
        points={
          Array.isArray(zone.points)
            ? zone.points.map((p) => (Array.isArray(p) ? p.join(',') : String(p))).join(' ')
            : String(zone.points ?? '')
        }
      />
    );
  return (
    <rect
      className="zone__shape"
      x={num(zone.x)}
      y={num(zone.y)}
      width={num(zone.width)}
      height={num(zone.height)}
    />
  );
}

/** Where a correction icon sits: the zone's centre. */
function centreOf(zone: Zone): [number, number] {
  if (zone.shape === 'circle') return [num(zone.cx), num(zone.cy)];
  if (zone.shape === 'polygon') {
    const pts = String(zone.points ?? '')
      .trim()
      .split(/\s+/)
      .map((p) => p.split(',').map(Number) as [number, number]);
    const sum = pts.reduce(([a, b], [x, y]) => [a + x, b + y], [0, 0]);
    return [sum[0] / Math.max(1, pts.length), sum[1] / Math.max(1, pts.length)];
  }
  return [num(zone.x) + num(zone.width) / 2, num(zone.y) + num(zone.height) / 2];
}

const ICONS: Partial<Record<CorrectionStatus, string>> = { correct: '✓', wrong: '✗', missing: '◎' };

/**
 * image-cliquable: the picture with its zones drawn over it; each zone is a focusable checkbox
 * named by its label (Tab to it, Space or Enter to tick). Zones show on hover and focus and
 * stay marked once picked. Answer: the picked zone indexes.
 */
export function ImageCliquable({
  row,
  idPrefix,
  labelledBy,
  value,
  onChange,
  readOnly,
  correction,
}: RowProps) {
  const { t } = useTranslation();
  const zones = (row.choices ?? []) as Zone[];
  const picked = asIndexList(value);
  const statuses = itemStatuses(correction);
  const viewBox = typeof row.viewBox === 'string' ? row.viewBox : `0 0 ${VIEWBOX_WIDTH} ${VIEWBOX_WIDTH / 2}`;
  const [, , width = VIEWBOX_WIDTH, height = VIEWBOX_WIDTH / 2] = viewBox.split(/\s+/).map(Number);
  const src = fileUrl(row.appFile as { id: string; url?: unknown } | null | undefined);
  const nameOf = (zone: Zone, index: number) =>
    typeof zone.label === 'string' && zone.label
      ? zone.label
      : typeof zone.value === 'string' && zone.value
        ? zone.value
        : t('exercises.imageCliquable.zone', { number: index + 1 });

  const toggle = (index: number) => {
    if (readOnly) return;
    onChange(
      (picked.includes(index) ? picked.filter((i) => i !== index) : [...picked, index]).sort((a, b) => a - b),
    );
  };
  const onKeyDown = (index: number) => (event: KeyboardEvent) => {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      toggle(index);
    }
  };

  return (
    <div className="image-cliquable">
      <p id={`${idPrefix}-help`} className="image-cliquable__help">
        {t('exercises.imageCliquable.help')}
      </p>
      <svg
        className="image-cliquable__svg"
        viewBox={viewBox}
        role="group"
        aria-labelledby={labelledBy}
        aria-describedby={`${idPrefix}-help`}
      >
        {src ? (
          <image href={src} x={0} y={0} width={width} height={height} preserveAspectRatio="xMidYMid meet" />
        ) : null}
        {zones.map((zone, index) => {
          const checked = picked.includes(index);
          const status = (statuses[index] ?? 'neutral') as CorrectionStatus;
          const [cx, cy] = centreOf(zone);
          return (
            <g
              key={index}
              role="checkbox"
              aria-checked={checked}
              aria-disabled={readOnly || undefined}
              aria-label={nameOf(zone, index)}
              tabIndex={0}
              className={`zone${checked ? ' is-picked' : ''} zone--${status}`}
              onClick={() => toggle(index)}
              onKeyDown={onKeyDown(index)}
            >
              <ZoneShape zone={zone} />
              {ICONS[status] ? (
                <text
                  x={cx}
                  y={cy}
                  className="zone__icon"
                  textAnchor="middle"
                  dominantBaseline="central"
                  aria-hidden="true"
                >
                  {ICONS[status]}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {correction ? (
        <ul className="image-cliquable__correction">
          {zones.map((zone, index) =>
            statuses[index] && statuses[index] !== 'neutral' ? (
              <li key={index}>
                {nameOf(zone, index)} <CorrectionMark status={statuses[index] as CorrectionStatus} />
              </li>
            ) : null,
          )}
        </ul>
      ) : null}
    </div>
  );
}
