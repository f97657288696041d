import { apiBase } from '../../../lib/api-base';
import { useTranslation } from '../../../lib/i18n';
import { useTenant } from '../../../lib/tenant';

interface SsoButtonProps {
  contextId: string;
  /** The tenant's name for its provider ("Mon entreprise"), from settings.login.oidc. */
  label: string;
}

/**
 * SSO sign-in (docs/product.md §7: the URL is built from the API host and the context id). A real link, not
 * a script: the server answers with a redirect to the provider, which comes back to
 * `/?idT=…&idU=…` (docs/api.md "SSO").
 */
export function SsoButton({ contextId, label }: SsoButtonProps) {
  const { t } = useTranslation();
  const internal = useTenant()?.attributes.settings.login.internal ?? true;
  return (
    <div className="sso">
      <a
        className="btn btn--primary sso__button"
        href={`${apiBase()}/auth/oidc/${encodeURIComponent(contextId)}/login`}
      >
        {t('login.sso.button', { label })}
      </a>
      {internal ? <p className="sso__or">{t('login.sso.or')}</p> : null}
    </div>
  );
}
