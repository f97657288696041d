import { useTranslation } from '../../lib/i18n';

interface PagerProps {
  page: number;
  pageCount: number;
  onChange: (page: number) => void;
  /** Accessible name of the navigation landmark. */
  label: string;
}

/** Page numbers with previous/next; hidden entirely when there is a single page (docs/product.md §2). */
export function Pager({ page, pageCount, onChange, label }: PagerProps) {
  const { t } = useTranslation();
  if (pageCount <= 1) return null;
  const pages = Array.from({ length: pageCount }, (_, i) => i + 1);
  return (
    <nav className="pager" aria-label={label}>
      <ul className="pager__list">
        <li>
          <button
            type="button"
            className="pager__button"
            onClick={() => onChange(page - 1)}
            disabled={page <= 1}
            aria-label={t('pager.previous')}
          >
            <span aria-hidden="true">‹</span>
          </button>
        </li>
        {pages.map((number) => (
          <li key={number}>
            <button
              type="button"
              className="pager__button"
              aria-current={number === page ? 'page' : undefined}
              aria-label={t('pager.page', { page: number })}
              onClick={() => onChange(number)}
            >
              {number}
            </button>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="pager__button"
            onClick={() => onChange(page + 1)}
            disabled={page >= pageCount}
            aria-label={t('pager.next')}
          >
            <span aria-hidden="true">›</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
