import { badgeLevel } from '@parcours/domain/badges';
import { competencyWidgetPadding } from '@parcours/domain/dashboard-levels';
import { medalColor } from '@parcours/domain/medal';
import { scorePercent } from '@parcours/domain/progress';
import { useId, useState, type CSSProperties } from 'react';
import { Badge } from '../../../components/ui/badge/Badge';
import { COMPETENCY_ICONS } from '../../../components/ui/badge/competency-icons';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { useTranslation } from '../../../lib/i18n';
import { useMediaQuery } from '../../../lib/use-media-query';
import { PanelEmpty, PanelStatus } from '../components/PanelStatus';
import { DESKTOP_QUERY } from '../tabs';
import { useCompetencyLevels, type CompetencyLevel } from './api/get-competency-levels';
import './levels.css';

interface TreeNode {
  level: CompetencyLevel;
  children: TreeNode[];
}

/** The API lists the tree in order, parents first: rebuild it from parent ids. */
function toTree(levels: readonly CompetencyLevel[]): TreeNode[] {
  const byId = new Map<string, TreeNode>();
  const roots: TreeNode[] = [];
  for (const level of levels) {
    const node: TreeNode = { level, children: [] };
    byId.set(level.id, node);
    const parent =
      level.attributes.depth > 0 && level.attributes.parentId
        ? byId.get(level.attributes.parentId)
        : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The dashboard's Levels tab (docs/product.md §2): the competency tree with the learner's medals. */
export function LevelsTab() {
  const { t } = useTranslation();
  const query = useCompetencyLevels();
  if (!query.data) return <PanelStatus isError={query.isError} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <PanelEmpty text={t('dashboard.levels.empty')} />;
  const tree = toTree(query.data);
  // docs/product.md §9 competency widget padding, by the number of competencies the widget shows.
  const padding = { '--levels-padding': competencyWidgetPadding(tree.length) } as CSSProperties;
  return (
    <div className="levels">
      <p className="levels__intro">{t('dashboard.levels.intro')}</p>
      <ul className="levels__list levels__list--top" style={padding}>
        {tree.map((node) => (
          <CompetencyItem key={node.level.id} node={node} />
        ))}
      </ul>
    </div>
  );
}

function CompetencyItem({ node }: { node: TreeNode }) {
  const { t } = useTranslation();
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const { title, children } = { title: node.level.attributes.title, children: node.children };
  const depth = node.level.attributes.depth;
  // docs/product.md §2: sub-competencies collapse under their parent on phones; desktops show them all.
  const collapsible = !desktop && children.length > 0;
  const showChildren = children.length > 0 && (!collapsible || open);

  return (
    <li className={`competency competency--depth-${Math.min(depth, 2)}`}>
      <CompetencyCard level={node.level} />
      {collapsible ? (
        <button
          type="button"
          className="competency__toggle"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((value) => !value)}
        >
          <span className="competency__chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          {t('dashboard.levels.showChildren', { title })} ({children.length})
        </button>
      ) : null}
      {showChildren ? (
        <ul className="levels__list levels__list--children" id={listId}>
          {children.map((child) => (
            <CompetencyItem key={child.level.id} node={child} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function CompetencyCard({ level }: { level: CompetencyLevel }) {
  const { t } = useTranslation();
  const { title, icon, actual, max, ratio, medal, depth } = level.attributes;
  const percent = scorePercent({ actual, max });
  const medalText = t(`dashboard.medals.${medal ?? 'none'}`);
  const Heading = depth === 0 ? 'h3' : 'h4';
  return (
    <div className="competency__card">
      <Badge
        type="level"
        level={badgeLevel('level', ratio)}
        size={depth === 0 ? 'md' : 'sm'}
        icon={icon}
        iconSet={COMPETENCY_ICONS}
        label={t('dashboard.levels.badge', { title, medal: medalText, percent: percent ?? 0 })}
      />
      <div className="competency__body">
        <Heading className="competency__title">{title}</Heading>
        <p className="competency__medal">
          {medalText}
          {' · '}
          {percent === null ? t('dashboard.levels.noScore') : t('dashboard.levels.score', { actual, max })}
        </p>
        {percent === null ? null : (
          <ProgressBar
            value={percent}
            label={t('dashboard.levels.progress', { title })}
            valueText={`${percent} %`}
            // docs/product.md §4: a level's bar takes the medal colour rule, not the progress one.
            className={`competency__progress competency__progress--${medalColor(ratio)}`}
          />
        )}
      </div>
    </div>
  );
}
