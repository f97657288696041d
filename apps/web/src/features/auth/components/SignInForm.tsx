import { readErrorCode, type ErrorCode } from '@parcours/domain/errors';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { useTranslation, keyFromData } from '../../../lib/i18n';
import { endPrerender, takeHeldSubmit, takeTypedValue } from '../../../lib/prerendered';
import { login, type Credentials } from '../api/login';
import { preloadLoginSchema, validateLogin, type LoginFieldErrors } from '../api/validate-login';

interface SignInFormProps {
  /** Receives the token once the server accepted the credentials. */
  onSignedIn: (token: string, userId: string) => Promise<boolean>;
}

/** The credentials as the form's fields show them. */
function shownValues(email: HTMLInputElement | null, password: HTMLInputElement | null): Credentials {
  return { email: email?.value ?? '', password: password?.value ?? '' };
}

/** docs/product.md §2 sign-in mode of the /login portal: identifier, password, inline errors, failure alert. */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const { t } = useTranslation();
  const id = useId();
  // What the learner typed into the server's HTML of this form before the app started (0026).
  const [values, setValues] = useState<Credentials>(() => ({
    email: takeTypedValue('email'),
    password: takeTypedValue('password'),
  }));
  const [errors, setErrors] = useState<LoginFieldErrors>({});
  const [failure, setFailure] = useState<ErrorCode | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Hydrated over the server's form (if it was): the app's handlers are in place. What was typed
  // after the state above read the fields and before React owned them reached no handler: the
  // fields still show it, and the next render would empty them (a field filled early on a slow
  // phone came back blank once the next one was typed). Taken from the fields now; a submit the
  // early script held meanwhile (Enter pressed before the app started) is sent, with what they show.
  useEffect(() => {
    const typed = shownValues(emailRef.current, passwordRef.current);
    setValues((current) =>
      current.email === typed.email && current.password === typed.password ? current : typed,
    );
    endPrerender();
    if (takeHeldSubmit()) formRef.current?.requestSubmit();
  }, []);

  const update = (field: keyof Credentials, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setFailure(null);
    setSubmitting(true);
    try {
      // What the fields show: the state, except for a submit held while the form hydrated (above).
      const checked = await validateLogin(shownValues(emailRef.current, passwordRef.current));
      if (checked.errors) {
        setErrors(checked.errors);
        (checked.errors.email ? emailRef : passwordRef).current?.focus();
        return;
      }
      setErrors({});
      const answer = await login(checked.values);
      const ok = await onSignedIn(answer.access_token, answer.user_id);
      if (!ok) setFailure('UNDEFINED');
    } catch (error) {
      setFailure(readErrorCode(error) ?? 'UNDEFINED');
    } finally {
      setSubmitting(false);
    }
  };

  // Errors are catalogue keys, so they follow a change of language.
  const emailError = errors.email ? t(keyFromData(errors.email)) : undefined;
  const passwordError = errors.password ? t(keyFromData(errors.password)) : undefined;

  return (
    // method=post: a submit before the app started never puts the password in the address
    // (app/early-start.ts stops it; without any script it goes to the server in the body).
    <form
      ref={formRef}
      className="login-form"
      method="post"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
    >
      {failure ? (
        <Alert tone="error" title={t('login.failureTitle')}>
          <p>{t(`errors.${failure}.message`, { defaultValue: t('errors.UNDEFINED.message') })}</p>
        </Alert>
      ) : null}

      <div className="field">
        <label className="field__label" htmlFor={`${id}-email`}>
          {t('login.identifier')}
        </label>
        <input
          ref={emailRef}
          id={`${id}-email`}
          name="email"
          className="field__input"
          type="text"
          inputMode="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.email}
          onChange={(event) => update('email', event.target.value)}
          onFocus={preloadLoginSchema}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${id}-email-error` : undefined}
          required
        />
        {emailError ? (
          <p id={`${id}-email-error`} className="field__error">
            {emailError}
          </p>
        ) : null}
      </div>

      <div className="field">
        <label className="field__label" htmlFor={`${id}-password`}>
          {t('login.password')}
        </label>
        <div className="field__with-action">
          <input
            ref={passwordRef}
            id={`${id}-password`}
            name="password"
            className="field__input"
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            value={values.password}
            onChange={(event) => update('password', event.target.value)}
            onFocus={preloadLoginSchema}
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={passwordError ? `${id}-password-error` : undefined}
            required
          />
          <button
            type="button"
            className="field__action"
            aria-pressed={showPassword}
            aria-controls={`${id}-password`}
            onClick={() => setShowPassword((shown) => !shown)}
          >
            {t('login.showPassword')}
          </button>
        </div>
        {passwordError ? (
          <p id={`${id}-password-error`} className="field__error">
            {passwordError}
          </p>
        ) : null}
      </div>

      <button type="submit" className="btn btn--primary login-form__submit" disabled={submitting}>
        {submitting ? t('login.submitting') : t('login.submit')}
      </button>
    </form>
  );
}
