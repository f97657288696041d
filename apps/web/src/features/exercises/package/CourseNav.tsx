import { Button } from '../../../components/ui/Button';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import type { CourseItemState, CourseNode, CourseRequest, CourseView } from './bridge-messages';

/**
 * A course's table of contents and its moves (issue 39): every SCO of the package, with its
 * status, the one playing marked as the current step, and Previous / Next. The package's
 * sequencing decides which moves are open (the bridge says so); a closed one is disabled, still
 * read out with its status. Plain buttons in nested lists: keyboard and screen readers as usual.
 */
export function CourseNav({
  course,
  idPrefix,
  onNavigate,
}: {
  course: CourseView;
  idPrefix: string;
  onNavigate: (request: CourseRequest, target?: string) => void;
}) {
  const { t } = useTranslation();
  const navId = `${idPrefix}-course-nav`;
  const currentTitle = course.current ? titleOf(course.toc, course.current) : null;
  return (
    <nav className="course-nav" aria-labelledby={`${navId}-title`}>
      <h3 id={`${navId}-title`} className="course-nav__title">
        {t('exercises.package.course.contents')}
      </h3>
      <p role="status" className="sr-only">
        {course.ended
          ? t('exercises.package.course.ended')
          : currentTitle
            ? t('exercises.package.course.now', { title: currentTitle })
            : ''}
      </p>
      <NodeList nodes={course.toc.children} course={course} onNavigate={onNavigate} />
      <div className="course-nav__moves">
        <Button variant="secondary" disabled={!course.canPrevious} onClick={() => onNavigate('previous')}>
          {t('exercises.package.course.previous')}
        </Button>
        <Button variant="secondary" disabled={!course.canContinue} onClick={() => onNavigate('continue')}>
          {t('exercises.package.course.next')}
        </Button>
      </div>
      {course.ended ? <p className="course-nav__ended">{t('exercises.package.course.ended')}</p> : null}
    </nav>
  );
}

function titleOf(node: CourseNode, id: string): string | null {
  if (node.id === id) return node.title;
  for (const c of node.children) {
    const found = titleOf(c, id);
    if (found) return found;
  }
  return null;
}

function NodeList({
  nodes,
  course,
  onNavigate,
}: {
  nodes: CourseNode[];
  course: CourseView;
  onNavigate: (request: CourseRequest, target?: string) => void;
}) {
  const { t } = useTranslation();
  const shown = nodes.filter((n) => !n.hidden);
  if (!shown.length) return null;
  return (
    <ul className="course-nav__list">
      {shown.map((n) => {
        const state = course.items[n.id];
        const current = n.id === course.current;
        return (
          <li key={n.id}>
            {n.sco ? (
              <button
                type="button"
                className="course-nav__item"
                aria-current={current ? 'step' : undefined}
                disabled={current || !state?.choice}
                onClick={() => onNavigate('choice', n.id)}
              >
                <span>{n.title}</span> <span className="course-nav__status">{t(statusKey(state))}</span>
              </button>
            ) : (
              <span className="course-nav__cluster">{n.title}</span>
            )}
            <NodeList nodes={n.children} course={course} onNavigate={onNavigate} />
          </li>
        );
      })}
    </ul>
  );
}

function statusKey(state: CourseItemState | undefined): TranslationKey {
  if (state?.success === 'passed') return 'exercises.package.course.status.passed';
  if (state?.success === 'failed') return 'exercises.package.course.status.failed';
  if (state?.completion === 'completed') return 'exercises.package.course.status.completed';
  if (state?.completion === 'incomplete') return 'exercises.package.course.status.incomplete';
  return 'exercises.package.course.status.notStarted';
}
