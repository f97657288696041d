import { STATISTICS_PERIODS, type StatisticsPeriod } from '@parcours/domain/statistics';
import { useId } from 'react';
import { useTranslation } from '../../../../lib/i18n';

interface PeriodPickerProps {
  value: StatisticsPeriod;
  onChange: (period: StatisticsPeriod) => void;
}

/** The docs/product.md §9 period presets as a radio group (arrow keys move between them). */
export function PeriodPicker({ value, onChange }: PeriodPickerProps) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className="stats-periods">
      <legend className="stats-periods__legend">{t('statistics.period.label')}</legend>
      {STATISTICS_PERIODS.map((period) => (
        <label key={period} className="stats-periods__option">
          <input
            type="radio"
            name={name}
            value={period}
            checked={period === value}
            onChange={() => onChange(period)}
          />
          <span>{t(`statistics.period.${period}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}
