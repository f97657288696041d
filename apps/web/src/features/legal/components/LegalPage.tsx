import type { LegalText } from '@parcours/domain/entities';
import { ButtonLink } from '../../../components/ui/Button';
import { dateLocaleOf, formatDate } from '../../../lib/format';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { useTenant } from '../../../lib/tenant';
import { useSanitizedHtml } from '../../../lib/sanitize-html';
import '../legal.css';

// Tenant HTML is cleaned before it renders: the screen's loader waits for the cleaner (decision 0033).
export { sanitizerReady } from '../../../lib/sanitize-html';

type LegalKind = 'cgu' | 'rgpd';

const TITLES: Record<LegalKind, TranslationKey> = {
  cgu: 'legal.mentions.title',
  rgpd: 'legal.protection.title',
};

/** docs/product.md §2 legal texts from the context settings: title, content, version and date, back home. */
export function LegalDocument({ kind }: { kind: LegalKind }) {
  const { t, i18n } = useTranslation();
  const tenant = useTenant();
  const text: LegalText | null = tenant?.attributes.settings?.legal?.[kind] ?? null;
  const html = useSanitizedHtml(text?.content ?? '');

  return (
    <div className="page page--narrow legal">
      <article className="card">
        <h1>{t(TITLES[kind])}</h1>
        {text ? (
          <>
            <p className="legal__meta">
              {t('legal.version', {
                version: text.version,
                date: formatDate(text.date, dateLocaleOf(i18n.language)),
              })}
            </p>
            {/* Content comes from the tenant and is cleaned just above (decision 0033). */}
            <div className="legal__content" dangerouslySetInnerHTML={{ __html: html }} />
          </>
        ) : (
          <p className="legal__empty">{t('legal.empty')}</p>
        )}
        <ButtonLink to="/" variant="secondary" className="legal__back">
          {t('common.backHome')}
        </ButtonLink>
      </article>
    </div>
  );
}

export function MentionsPage() {
  return <LegalDocument kind="cgu" />;
}

export function DataProtectionPage() {
  return <LegalDocument kind="rgpd" />;
}
