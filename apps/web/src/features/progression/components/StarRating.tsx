import { MAX_RATING } from '@parcours/domain/constants';
import { useState } from 'react';
import { FieldError, Label, Radio, RadioGroup } from 'react-aria-components';
import { useTranslation } from '../../../lib/i18n';

const STARS = Array.from({ length: MAX_RATING }, (_, i) => i + 1);

interface StarRatingProps {
  /** 0 means no rating yet. */
  value: number;
  onChange: (rating: number) => void;
  /** Visible group label, already translated. */
  label: string;
  /** Already translated; shown under the stars and announced with the group. */
  error?: string | undefined;
  isDisabled?: boolean;
  name?: string;
}

function Star({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="star-rating__icon">
      <path
        d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z"
        className={filled ? 'star-rating__fill star-rating__fill--on' : 'star-rating__fill'}
      />
    </svg>
  );
}

/**
 * docs/product.md §5 rating, 1 to 5 stars, as a radio group (React Aria): arrows move and pick, each star
 * is named "3 stars" in the learner's language, and hovering previews the stars it would light.
 */
export function StarRating({
  value,
  onChange,
  label,
  error,
  isDisabled = false,
  name = 'rating',
}: StarRatingProps) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<number | null>(null);
  const lit = preview ?? value;
  return (
    <RadioGroup
      className="star-rating"
      name={name}
      orientation="horizontal"
      value={value > 0 ? String(value) : null}
      onChange={(next) => onChange(Number(next))}
      isDisabled={isDisabled}
      isInvalid={Boolean(error)}
      validationBehavior="aria"
    >
      <Label className="field__label">{label}</Label>
      <div className="star-rating__stars" onPointerLeave={() => setPreview(null)}>
        {STARS.map((stars) => (
          <Radio
            key={stars}
            value={String(stars)}
            className="star-rating__star"
            onHoverStart={() => setPreview(isDisabled ? null : stars)}
          >
            <Star filled={stars <= lit} />
            <span className="sr-only">{t('progression.evaluate.star', { count: stars })}</span>
          </Radio>
        ))}
      </div>
      <FieldError className="field__error">{error}</FieldError>
    </RadioGroup>
  );
}
