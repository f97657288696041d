import type { Scoring } from '@parcours/domain/entities';
import { scorePercent } from '@parcours/domain/progress';
import { useTranslation } from '../../../lib/i18n';
import { RadialScore } from './RadialScore';

/** The lesson's score ring, only when the lesson has a positive maximum (docs/product.md §4). */
export function LessonScore({ scoring }: { scoring: Scoring | undefined }) {
  const { t } = useTranslation();
  const percent = scorePercent(scoring?.global ?? { actual: 0, max: 0 });
  if (percent === null) return null;
  return (
    <RadialScore
      percent={percent}
      label={t('progression.score.label', { percent })}
      valueText={t('progression.score.value', { percent })}
    />
  );
}
