import {
  ratingPercent,
  ratingScore,
  ratingStars,
  RATING_STARS,
  type StarFill,
} from '@parcours/domain/rating';
import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n';
import './rating.css';

/**
 * Props of the rating display (docs/product.md §3 "Rating display", §9), read-only; the input is
 * features/progression's StarRating.
 * - `percent`: the rating as a fraction 0..1 (a review's ratio); drawn as 3 stars in half steps.
 * - `message`: optional text beside the stars (already translated).
 * - `tooltip`: show the percent with one decimal on hover and keyboard focus (default on).
 * - `theme`: `light` (dark stars for light backgrounds, the default) or `dark`.
 */
export interface RatingDisplayProps {
  percent: number;
  message?: string;
  tooltip?: boolean;
  theme?: 'dark' | 'light';
  className?: string;
}

const STAR_PATH = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';

function Star({ fill, clipId }: { fill: StarFill; clipId: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={`rating__star rating__star--${fill}`}
      aria-hidden="true"
      focusable="false"
    >
      {fill === 'half' ? (
        <defs>
          <clipPath id={clipId}>
            <rect x="0" y="0" width="12" height="24" />
          </clipPath>
        </defs>
      ) : null}
      <path d={STAR_PATH} className="rating__star-empty" />
      {fill !== 'empty' ? (
        <path
          d={STAR_PATH}
          className="rating__star-fill"
          clipPath={fill === 'half' ? `url(#${clipId})` : undefined}
        />
      ) : null}
    </svg>
  );
}

export function RatingDisplay({
  percent,
  message,
  tooltip = true,
  theme = 'light',
  className,
}: RatingDisplayProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const stars = ratingStars(percent);
  const score = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
    ratingScore(percent),
  );
  const shown = new Intl.NumberFormat(i18n.language, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(ratingPercent(percent));
  const tip = t('rating.tooltip', { percent: shown });
  const name = t('rating.label', { score, max: RATING_STARS, percent: shown });
  const classes = ['rating', `rating--${theme}`, className].filter(Boolean).join(' ');
  return (
    <span className={classes}>
      {/* Focusable so keyboard users reach the tooltip as mouse users do by hovering (WCAG 1.4.13). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a tooltip host, see above */}
      <span className="rating__stars" role="img" aria-label={name} tabIndex={tooltip ? 0 : undefined}>
        {stars.map((fill, i) => (
          <Star key={i} fill={fill} clipId={`${id}-half-${i}`} />
        ))}
        {tooltip ? (
          <span className="rating__tooltip" aria-hidden="true">
            {tip}
          </span>
        ) : null}
      </span>
      {message ? <span className="rating__message">{message}</span> : null}
    </span>
  );
}
