import type { ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components';
import { useTranslation } from '../../lib/i18n';

/**
 * React Aria's own texts (the hidden "dismiss" button of a dialog or popover, read by screen
 * readers) in the app's language: without it they follow the browser's, so a French learner on
 * an English browser heard English. Around each React Aria root, inside its lazy chunk: the
 * explicit locale asks Intl for its direction, which loads ICU, so not on the way to a first
 * screen (decision 0030).
 */
export function AriaLocale({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <I18nProvider locale={i18n.language === 'fr' ? 'fr-FR' : 'en-US'}>{children}</I18nProvider>;
}
