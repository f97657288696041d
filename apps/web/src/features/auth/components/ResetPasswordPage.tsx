import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordSchema } from '@parcours/domain/schemas';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/Alert';
import { FormField } from '../../../components/ui/FormField';
import { PasswordInput } from '../../../components/ui/PasswordInput';
import { Spinner } from '../../../components/ui/Spinner';
import { ApiError } from '../../../lib/api-client';
import { errorCodeOf, fieldProblems } from '../../../lib/api-errors';
import { useTranslation } from '../../../lib/i18n';
import { endSession, type SessionNotice } from '../../../lib/session';
import { getResetLink, type ResetLink } from '../api/get-reset-link';
import { resetPassword } from '../api/reset-password';
import type { LoginLocationState } from './LoginPage';
import '../../../components/ui/form.css';
import '../auth.css';

/** SPEC §8 "user load via link": 403 expired, 401 invalid or used, anything else: sign in again. */
function linkNotice(error: unknown): SessionNotice | null {
  if (error instanceof ApiError && error.status === 403) return 'linkExpired';
  if (error instanceof ApiError && error.status === 401) return 'linkInvalid';
  return null;
}

interface ResetForm {
  password: string;
}

/**
 * /reset/{token} and /reset?token= (SPEC §2, §4 "Password reset": form, then done, logout,
 * success message). The link is checked first; a bad link logs out and opens the recover mode
 * with the reason, so a new link is one step away.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const [search] = useSearchParams();
  const token = params.token ?? search.get('token') ?? '';
  const [link, setLink] = useState<ResetLink | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const leave = (notice: SessionNotice) => {
      endSession(notice);
      void navigate('/login?mode=recover', { replace: true });
    };
    if (!token) {
      leave('linkInvalid');
      return undefined;
    }
    const controller = new AbortController();
    getResetLink(token, controller.signal).then(setLink, (error: unknown) => {
      if (controller.signal.aborted) return;
      const notice = linkNotice(error);
      if (notice) leave(notice);
      else setFailure(errorCodeOf(error));
    });
    return () => controller.abort();
  }, [token, navigate]);

  const schema = useMemo(() => resetPasswordSchema({ simple: link?.simplePassword ?? false }), [link]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetForm>({ resolver: zodResolver(schema), defaultValues: { password: '' } });

  const onValid = async ({ password }: ResetForm) => {
    setFailure(null);
    try {
      await resetPassword(token, password);
      // SPEC §4: done, then logout, then the success message on the sign-in screen.
      endSession();
      const state: LoginLocationState = { passwordReset: true };
      void navigate('/login', { replace: true, state });
    } catch (error) {
      const notice = linkNotice(error);
      if (notice) {
        endSession(notice);
        void navigate('/login?mode=recover', { replace: true });
        return;
      }
      const problem = fieldProblems(error).find((p) => p.field === 'password');
      if (problem) setError('password', { message: problem.key }, { shouldFocus: true });
      else setFailure(errorCodeOf(error));
    }
  };

  const passwordError = errors.password?.message ? t(errors.password.message) : undefined;

  return (
    <div className="page page--narrow login">
      <div className="card login__card">
        <h1 className="login__title">{t('reset.title')}</h1>
        {failure ? (
          <Alert tone="error" title={t(`errors.${failure}.title`)}>
            <p>{t(`errors.${failure}.message`)}</p>
          </Alert>
        ) : null}
        {!link && !failure ? <Spinner label={t('reset.checking')} /> : null}
        {link ? (
          <>
            <p className="login__intro">{t('reset.intro', { email: link.email || link.displayName })}</p>
            <form className="login-form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
              <FormField
                label={t('reset.password')}
                hint={link.simplePassword ? t('account.password.ruleSimple') : t('account.password.rule')}
                error={passwordError}
              >
                {(control) => (
                  <PasswordInput
                    {...control}
                    {...register('password')}
                    showLabel={t('login.showPassword')}
                    autoComplete="new-password"
                    required
                  />
                )}
              </FormField>
              <button type="submit" className="btn btn--primary login-form__submit" disabled={isSubmitting}>
                {isSubmitting ? t('reset.submitting') : t('reset.submit')}
              </button>
            </form>
          </>
        ) : null}
      </div>
    </div>
  );
}
