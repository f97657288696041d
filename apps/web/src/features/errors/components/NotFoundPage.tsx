import { ButtonLink } from '../../../components/ui/Button';
import { useTranslation } from '../../../lib/i18n';

const PAGE_KEYS = { title: 'notFound.title', text: 'notFound.text' } as const;
const LESSON_KEYS = { title: 'notFound.lessonTitle', text: 'notFound.lessonText' } as const;

/**
 * docs/product.md §2 unknown route, and an unknown lesson id (issue 12): the player's MODEL_NOT_FOUND says
 * "cannot find the next page", which misleads when the lesson itself does not exist or is not the
 * learner's, so the player shows this page with the lesson's wording instead.
 */
export function NotFoundPage({ what = 'page' }: { what?: 'page' | 'lesson' }) {
  const { t } = useTranslation();
  const keys = what === 'lesson' ? LESSON_KEYS : PAGE_KEYS;
  return (
    <div className="page page--narrow centered">
      <svg className="illustration" viewBox="0 0 240 140" aria-hidden="true" focusable="false">
        <ellipse cx="120" cy="126" rx="90" ry="8" fill="#e4e7ec" />
        <text
          x="120"
          y="92"
          textAnchor="middle"
          fontSize="76"
          fontWeight="700"
          fill="#c7d2fe"
          fontFamily="system-ui, sans-serif"
        >
          404
        </text>
        <circle cx="170" cy="44" r="22" fill="none" stroke="#1d4ed8" strokeWidth="6" />
        <path d="M186 60l22 22" stroke="#1d4ed8" strokeWidth="8" strokeLinecap="round" />
      </svg>
      <h1>{t(keys.title)}</h1>
      <p>{t(keys.text)}</p>
      <ButtonLink to="/">{t('common.backToDashboard')}</ButtonLink>
    </div>
  );
}
