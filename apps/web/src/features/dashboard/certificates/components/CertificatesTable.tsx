import type { CertificationWording } from '@parcours/domain/certification';
import { progressionColor } from '@parcours/domain/certification';
import { CERTIFICATE_SCORE_SCALE } from '@parcours/domain/constants';
import { useId } from 'react';
import { Badge } from '../../../../components/ui/badge/Badge';
import { dateLocaleOf, formatDate } from '../../../../lib/format';
import { useTranslation } from '../../../../lib/i18n';
import type { CertificationItem } from '../api/get-certification-items';
import { DocumentLinks } from './DocumentLinks';

interface Props {
  items: CertificationItem[];
  wording: CertificationWording;
}

/**
 * docs/product.md §2 table: badge, class-program opening and closing dates, course title with score out of
 * 1000, class name with percent progress (coloured per docs/product.md §9), document links. A real table
 * (caption, column headers, row headers) in a focusable scroll region, so phones scroll it
 * sideways and keyboard users can too.
 */
export function CertificatesTable({ items, wording }: Props) {
  const { t, i18n } = useTranslation();
  const captionId = useId();
  const hintId = useId();
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  const dash = t('certificates.noDate');

  return (
    <div className="certificates">
      <p id={hintId} className="certificates__scroll-hint">
        {t('certificates.scrollHint')}
      </p>
      <div
        className="certificates__scroll"
        role="region"
        aria-labelledby={captionId}
        aria-describedby={hintId}
        // A scrolling region must take focus so keyboard users can scroll it (WCAG 2.1.1).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
      >
        {/* Explicit roles: on a phone the rows are laid out as cards (display: grid), which makes
            browsers drop the table semantics the elements would otherwise carry. */}
        {/* eslint-disable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role */}
        <table className="certificates__table" role="table">
          <caption id={captionId}>{t(`certificates.caption.${wording}`)}</caption>
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">
                <span className="sr-only">{t('certificates.columns.badge')}</span>
              </th>
              <th scope="col" role="columnheader">
                {t('certificates.columns.opening')}
              </th>
              <th scope="col" role="columnheader">
                {t('certificates.columns.closing')}
              </th>
              <th scope="col" role="columnheader">
                {t('certificates.columns.course')}
              </th>
              <th scope="col" role="columnheader">
                {t('certificates.columns.class')}
              </th>
              <th scope="col" role="columnheader">
                {t(`certificates.columns.document.${wording}`)}
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {items.map((item) => {
              const available = item.certificateUrl !== null;
              return (
                <tr key={item.id} role="row">
                  <td className="certificates__badge" role="cell">
                    <Badge
                      type="certification"
                      level={item.wording}
                      size="sm"
                      certif={available}
                      label={t(`certificates.badge.${item.wording}`)}
                    />
                  </td>
                  {/* data-label: a phone shows each row as a card, each cell with its column's name. */}
                  <td
                    className="certificates__date"
                    data-label={t('certificates.columns.opening')}
                    role="cell"
                  >
                    {formatDate(item.classProgram.startAt, dateLocaleOf(i18n.language)) || dash}
                  </td>
                  <td
                    className="certificates__date"
                    data-label={t('certificates.columns.closing')}
                    role="cell"
                  >
                    {formatDate(item.classProgram.expireAt, dateLocaleOf(i18n.language)) || dash}
                  </td>
                  <th scope="row" className="certificates__course" role="rowheader">
                    <span className="certificates__title">{item.course.title}</span>
                    <span className="certificates__score">
                      {t('certificates.score', { score: item.score, scale: CERTIFICATE_SCORE_SCALE })}
                    </span>
                  </th>
                  <td data-label={t('certificates.columns.class')} role="cell">
                    <span className="certificates__class">{item.class.name}</span>
                    <span
                      className={`certificates__progress certificates__progress--${progressionColor(item.percentProgression)}`}
                    >
                      {t('certificates.progress', { percent: percent.format(item.percentProgression / 100) })}
                    </span>
                  </td>
                  <td className="certificates__document" role="cell">
                    {available ? (
                      <DocumentLinks item={item} />
                    ) : (
                      <span className="certificates__pending">
                        {t(item.ended ? 'certificates.notAwarded' : 'certificates.notEnded')}
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {/* eslint-enable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role */}
      </div>
    </div>
  );
}
