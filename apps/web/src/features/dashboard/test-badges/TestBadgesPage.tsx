import { BADGE_KINDS, BADGE_SIZES, BADGE_TYPES, type BadgeLevelName } from '@parcours/domain/badges';
import { Badge } from '../../../components/ui/badge/Badge';
import { BadgeIcon } from '../../../components/ui/badge/badge-icons';
import { COMPETENCY_ICONS } from '../../../components/ui/badge/competency-icons';
import type { IconSet } from '../../../components/ui/badge/icon-node';
import { JOB_ICONS } from '../../../components/ui/badge/job-icons';
import { RatingDisplay } from '../../../components/ui/rating/RatingDisplay';
import { useTranslation } from '../../../lib/i18n';
import './test-badges.css';

/** docs/product.md §9 test badge ratios. */
export const TEST_RATIOS = [0.2, 0.4, 0.6, 0.8, 1] as const;

const ICONS: Record<string, string | undefined> = { level: 'calculator', theme: 'handshake' };
const SETS: Record<string, IconSet | undefined> = { level: COMPETENCY_ICONS, theme: JOB_ICONS };

/**
 * /test-badges (docs/product.md §2): every badge kind, level and size at each test ratio, with changes of
 * both signs, and the rating display on both themes — for checking the pictures and the styles.
 */
export function TestBadgesPage() {
  const { t, i18n } = useTranslation();
  const ratio = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <div className="page test-badges">
      <h1>{t('testBadges.title')}</h1>
      <p>{t('testBadges.intro')}</p>
      {BADGE_TYPES.map((type) => (
        <section key={type} className="test-badges__type" aria-labelledby={`tb-${type}`}>
          <h2 id={`tb-${type}`}>{t(`testBadges.types.${type}`)}</h2>
          {BADGE_SIZES.map((size) => (
            <div key={size} className="test-badges__size">
              <h3>{t(`testBadges.sizes.${size}`)}</h3>
              {(BADGE_KINDS[type].levels as readonly BadgeLevelName[]).map((level) => (
                <ul
                  key={level}
                  className="test-badges__row"
                  aria-label={`${t(`testBadges.types.${type}`)} ${level}`}
                >
                  {TEST_RATIOS.map((r, i) => (
                    <li key={r}>
                      <Badge
                        type={type}
                        level={level}
                        size={size}
                        done={r}
                        delta={(i % 2 === 0 ? 1 : -1) * Math.round(r * 50)}
                        deltaStart={100}
                        icon={ICONS[type]}
                        iconSet={SETS[type]}
                        certif={type === 'certification'}
                        value={type === 'PI' ? Math.round(r * 1000) : `${Math.round(r * 100)} %`}
                        label={t('testBadges.badge', {
                          type: t(`testBadges.types.${type}`),
                          level,
                          ratio: ratio.format(r),
                        })}
                      />
                      <span className="test-badges__ratio">
                        {t('testBadges.ratio', { ratio: ratio.format(r) })}
                      </span>
                    </li>
                  ))}
                </ul>
              ))}
            </div>
          ))}
        </section>
      ))}
      {(
        [
          ['competencies', COMPETENCY_ICONS],
          ['jobs', JOB_ICONS],
        ] as const
      ).map(([name, set]) => (
        <section key={name} className="test-badges__type" aria-labelledby={`tb-icons-${name}`}>
          <h2 id={`tb-icons-${name}`}>{t(`testBadges.icons.${name}`, { count: Object.keys(set).length })}</h2>
          <ul className="test-badges__icons">
            {Object.keys(set).map((icon) => (
              <li key={icon}>
                <BadgeIcon name={icon} set={set} className="test-badges__icon" />
                <code>{icon}</code>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <section className="test-badges__type" aria-labelledby="tb-ratings">
        <h2 id="tb-ratings">{t('testBadges.ratings')}</h2>
        <ul className="test-badges__row">
          {TEST_RATIOS.map((r) => (
            <li key={r}>
              <RatingDisplay percent={r} message={t('testBadges.ratio', { ratio: ratio.format(r) })} />
            </li>
          ))}
        </ul>
        <ul className="test-badges__row test-badges__row--dark" aria-label={t('testBadges.dark')}>
          {TEST_RATIOS.map((r) => (
            <li key={r}>
              <RatingDisplay
                percent={r}
                theme="dark"
                message={t('testBadges.ratio', { ratio: ratio.format(r) })}
              />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
