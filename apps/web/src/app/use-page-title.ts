import { useEffect } from 'react';
import { useTranslation, type TranslationKey } from '../lib/i18n';
import { useTenant } from '../lib/tenant';

/** docs/product.md §2: product name plus the translated route name; 'Espace Apprenant' when either is missing. */
export function pageTitle(
  productName: string | null | undefined,
  routeName: string | null,
  fallback: string,
): string {
  const product = productName?.trim() || fallback;
  return routeName ? `${product} – ${routeName}` : product;
}

export function usePageTitle(titleKey: TranslationKey | null): void {
  const { t, i18n } = useTranslation();
  const tenant = useTenant();
  const product = tenant?.attributes.name;
  useEffect(() => {
    const routeName = titleKey ? t(titleKey, { defaultValue: '' }) || null : null;
    document.title = pageTitle(product, routeName, t('app.fallbackTitle'));
  }, [t, i18n.language, product, titleKey]);
}
