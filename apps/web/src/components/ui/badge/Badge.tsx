import {
  badgePicturePath,
  clampDone,
  deltaSign,
  type BadgeLevelName,
  type BadgeSize,
  type BadgeType,
} from '@parcours/domain/badges';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { BadgeIcon, isIconUrl } from './badge-icons';
import type { IconSet } from './icon-node';
import './badge.css';

/**
 * Props of the badge display (docs/product.md §3 "Badge display"); shared by every dashboard tab.
 *
 * - `type`, `level`: which picture (`/static/images/badges/badge-{type}_{level}[_{size}].png`,
 *   built from SVG by vite-badges.ts); levels per type are in packages/domain/src/badges.ts
 *   (`badgeLevel(type, ratio)` gives the one a ratio earns).
 * - `size`: sm (2 rem), md (4 rem, the default) or xl (8 rem); xl with type PI draws a progress
 *   ring of `done` around the picture.
 * - `done`: progress 0..1 (clamped), drawn by the PI xl ring.
 * - `delta`: a change to show (e.g. XP since last week), green when positive, red otherwise;
 *   `deltaStart` the value it changed from, read out with it.
 * - `icon`: an icon name from `iconSet` (the competency or job set: competency-icons.ts,
 *   job-icons.ts), or a picture URL, drawn in the centre; a name the set lacks draws the star.
 * - `iconSet`: the set `icon` names come from (the tab that draws the badge imports it).
 * - `img`: a picture URL that replaces the built one.
 * - `certif`: adds the certification mark.
 * - `value`: short text drawn in the centre (a percent, a number of points).
 * - `label`: what the badge says, for screen readers (already translated). Without it the badge
 *   is decorative and hidden from them: the text beside it must say it all.
 */
export interface BadgeProps {
  type: BadgeType;
  level: BadgeLevelName;
  size?: BadgeSize;
  done?: number;
  delta?: number;
  deltaStart?: number;
  icon?: string | null;
  iconSet?: IconSet;
  img?: string | null;
  certif?: boolean;
  value?: ReactNode;
  label?: string;
  className?: string;
}

const RING_RADIUS = 46;
const RING_LENGTH = 2 * Math.PI * RING_RADIUS;

export function Badge({
  type,
  level,
  size = 'md',
  done,
  delta,
  deltaStart,
  icon,
  iconSet,
  img,
  certif = false,
  value,
  label,
  className,
}: BadgeProps) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language, { signDisplay: 'exceptZero' });
  const plain = new Intl.NumberFormat(i18n.language);
  const ring = type === 'PI' && size === 'xl';
  const share = clampDone(done);
  const hasValue = value !== undefined && value !== null;

  const spoken: string[] = [];
  if (label) spoken.push(label);
  if (delta !== undefined) {
    const text = number.format(delta);
    spoken.push(
      deltaStart === undefined
        ? t('badge.delta', { delta: text })
        : t('badge.deltaFrom', { delta: text, start: plain.format(deltaStart) }),
    );
  }
  if (certif) spoken.push(t('badge.certified'));

  const classes = ['badge', `badge--${size}`, `badge--${type}`, `badge--${level}`, className]
    .filter(Boolean)
    .join(' ');
  const a11y = label ? { role: 'img', 'aria-label': spoken.join(', ') } : { 'aria-hidden': true };

  return (
    <span className={classes} {...a11y} data-level={level}>
      <span className="badge__art">
        {ring ? (
          <svg className="badge__ring" viewBox="0 0 100 100" aria-hidden="true" focusable="false">
            <circle className="badge__ring-track" cx="50" cy="50" r={RING_RADIUS} />
            <circle
              className="badge__ring-done"
              cx="50"
              cy="50"
              r={RING_RADIUS}
              strokeDasharray={`${(share * RING_LENGTH).toFixed(2)} ${RING_LENGTH.toFixed(2)}`}
              data-done={share}
            />
          </svg>
        ) : null}
        <img
          className="badge__img"
          src={img ?? badgePicturePath(type, level, size)}
          alt=""
          decoding="async"
        />
        {icon ? (
          isIconUrl(icon) ? (
            <img className="badge__icon" src={icon} alt="" />
          ) : (
            <BadgeIcon name={icon} set={iconSet} className="badge__icon" />
          )
        ) : null}
        {hasValue && !icon ? <span className="badge__value">{value}</span> : null}
        {certif ? (
          <span className="badge__certif">
            <BadgeIcon name="certified" />
          </span>
        ) : null}
      </span>
      {/* With an icon on the picture, the value goes under it so neither hides the other. */}
      {hasValue && icon ? <span className="badge__value badge__value--below">{value}</span> : null}
      {delta !== undefined ? (
        <span className={`badge__delta badge__delta--${deltaSign(delta)}`}>{number.format(delta)}</span>
      ) : null}
    </span>
  );
}
