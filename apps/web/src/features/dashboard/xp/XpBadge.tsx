import { useSession } from '../../../lib/session';
import { useTranslation } from '../../../lib/i18n';
import { Badge } from '../../../components/ui/badge/Badge';
import { useTenant } from '../../../lib/tenant';
import { useXp, XP_DELTA_DAYS } from './get-xp';

function profileXp(scoring: Record<string, unknown> | undefined): number {
  const xp = Number(scoring?.xp ?? 0);
  return Number.isFinite(xp) ? xp : 0;
}

/** The learner's XP as a PI badge, with its change over the last week (docs/product.md §3, §7 records). */
export function XpBadge() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const days = useTenant()?.attributes.settings.badges?.xpPeriodDays ?? XP_DELTA_DAYS;
  const xp = useXp(user?.profile.id ?? '', profileXp(user?.profile.scoring), days);
  if (!user || !xp.data) return null;
  const { data } = xp;
  const points = new Intl.NumberFormat(i18n.language).format(data.xp);
  return (
    <div className="xp">
      <Badge
        type="PI"
        level="xp"
        value={points}
        delta={data.delta}
        deltaStart={data.start}
        label={t('dashboard.xp.label', { xp: points })}
      />
      <div className="xp__text">
        <span className="xp__title">{t('dashboard.xp.title')}</span>
        <span className="xp__since">{t('dashboard.xp.since', { count: days })}</span>
      </div>
    </div>
  );
}
