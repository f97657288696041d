import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { errorCodeOf } from '../../../lib/api-errors';
import { errorKeys, useTranslation, keyFromData } from '../../../lib/i18n';
import { recoverPassword } from '../api/recover';
import { checkRecoverEmail } from '../recover-schema';

/**
 * Recover mode of the /login portal: asks for the e-mail and sends a reset link. The answer is
 * the same whether or not the address is known (docs/api.md), and so is the message shown.
 */
export function RecoverForm() {
  const { t } = useTranslation();
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setFailure(null);
    const checked = checkRecoverEmail(email);
    if (!checked.success) {
      setError(checked.error);
      inputRef.current?.focus();
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      await recoverPassword(checked.email);
      setSentTo(checked.email);
    } catch (caught) {
      setFailure(errorCodeOf(caught));
    } finally {
      setSubmitting(false);
    }
  };

  if (sentTo) {
    return (
      <Alert tone="success" title={t('recover.sentTitle')} className="login-done">
        <p>{t('recover.sentText', { email: sentTo })}</p>
      </Alert>
    );
  }

  return (
    <form className="login-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      {failure ? (
        <Alert tone="error" title={t(errorKeys(failure).title)}>
          <p>{t(errorKeys(failure).message)}</p>
        </Alert>
      ) : null}
      <div className="field">
        <label className="field__label" htmlFor={`${id}-email`}>
          {t('recover.email')}
        </label>
        <input
          ref={inputRef}
          id={`${id}-email`}
          name="email"
          className="field__input"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-email-error` : undefined}
          required
        />
        {error ? (
          <p id={`${id}-email-error`} className="field__error">
            {t(keyFromData(error))}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn btn--primary login-form__submit" disabled={submitting}>
        {submitting ? t('recover.submitting') : t('recover.submit')}
      </button>
    </form>
  );
}
