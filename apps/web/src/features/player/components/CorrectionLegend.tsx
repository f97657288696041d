import { CorrectionMark } from '../../../components/ui/CorrectionMark';
import { useTranslation } from '../../../lib/i18n';

/** docs/product.md §2: what the correct, wrong and expected styles mean. */
export function CorrectionLegend() {
  const { t } = useTranslation();
  return (
    <aside className="correction-legend" aria-labelledby="correction-legend-title">
      <h2 id="correction-legend-title" className="correction-legend__title">
        {t('player.correction.legend')}
      </h2>
      <ul className="correction-legend__list">
        {(['correct', 'wrong', 'missing'] as const).map((status) => (
          <li key={status}>
            <CorrectionMark status={status} /> {t(`player.correction.explain.${status}`)}
          </li>
        ))}
      </ul>
    </aside>
  );
}
