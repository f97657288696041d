import { Badge } from '../../../components/ui/badge/Badge';
import { JOB_ICONS } from '../../../components/ui/badge/job-icons';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { useTranslation } from '../../../lib/i18n';
import { PanelEmpty, PanelStatus } from '../components/PanelStatus';
import { useCategoryProgress } from './api/get-category-progress';
import './jobs.css';

/** The dashboard's Jobs tab (docs/product.md §2): a badge per started category, with its percent out of 100. */
export function JobsTab() {
  const { t } = useTranslation();
  const query = useCategoryProgress();
  if (!query.data) return <PanelStatus isError={query.isError} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <PanelEmpty text={t('dashboard.jobs.empty')} />;
  return (
    <div className="jobs">
      <p className="jobs__intro">{t('dashboard.jobs.intro')}</p>
      <ul className="jobs__list">
        {query.data.map((job) => {
          const { title, icon, percent, level } = job.attributes;
          return (
            <li key={job.id} className="job">
              <Badge
                type="theme"
                level={level}
                size="xl"
                icon={icon}
                iconSet={JOB_ICONS}
                label={t('dashboard.jobs.badge', { title, percent })}
              />
              <h3 className="job__title">{title}</h3>
              <p className="job__percent">{t('dashboard.jobs.percent', { percent })}</p>
              <ProgressBar
                value={percent}
                label={t('dashboard.levels.progress', { title })}
                valueText={`${percent} %`}
                className="job__progress"
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
