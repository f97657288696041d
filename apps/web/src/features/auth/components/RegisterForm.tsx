import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '../../../components/ui/Alert';
import { FormField } from '../../../components/ui/FormField';
import { PasswordInput } from '../../../components/ui/PasswordInput';
import { fieldProblems, normaliseError, quotaKeyOf } from '../../../lib/api-errors';
import { errorKeys, useTranslation, keyFromData } from '../../../lib/i18n';
import { useTenant } from '../../../lib/tenant';
import { register as registerAccount } from '../api/register';
import { registerSchema, type RegisterFormValues, type RegisterValues } from '../register-schema';

interface RegisterFormProps {
  onSignedIn: (token: string, userId: string) => Promise<boolean>;
}

const FIELDS = ['code', 'username', 'email', 'password'] as const;

/**
 * Register mode of the /login portal (docs/product.md §2, only when the tenant has invitation codes): the
 * code is checked by the server (docs/product.md §5), which signs the new learner in.
 */
export function RegisterForm({ onSignedIn }: RegisterFormProps) {
  const { t, i18n } = useTranslation();
  const simplePassword = useTenant()?.attributes.settings.invitationCodes.simplePassword ?? false;
  const schema = useMemo(() => registerSchema(simplePassword), [simplePassword]);
  // The alert names the problem; its explanation goes under the field when the server points at one.
  const [failure, setFailure] = useState<{ code: string; explained: boolean; detail?: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegisterFormValues, unknown, RegisterValues>({
    resolver: zodResolver(schema),
    defaultValues: { code: '', username: '', email: '', password: '' },
    shouldFocusError: true,
  });

  const onValid = async (values: RegisterValues) => {
    setFailure(null);
    try {
      const answer = await registerAccount({
        code: values.code,
        username: values.username,
        password: values.password,
        ...(values.email ? { email: values.email } : {}),
        preferredLocale: i18n.language,
      });
      if (!(await onSignedIn(answer.access_token, answer.user_id)))
        setFailure({ code: 'UNDEFINED', explained: false });
    } catch (error) {
      let explained = false;
      for (const problem of fieldProblems(error)) {
        const field = FIELDS.find((name) => name === problem.field);
        if (!field) continue;
        setError(field, { message: problem.key }, { shouldFocus: !explained });
        explained = true;
      }
      // Too many accounts from this code or address (issue 36): the server names why.
      const quota = quotaKeyOf(error);
      setFailure({
        code: normaliseError(error, FIELDS).code,
        explained,
        ...(quota ? { detail: quota } : {}),
      });
    }
  };

  const message = (field: (typeof FIELDS)[number]) => {
    const key = errors[field]?.message;
    return key ? t(keyFromData(key)) : undefined;
  };

  return (
    <form className="login-form" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
      {failure ? (
        <Alert tone="error" title={t(errorKeys(failure.code).title)}>
          {failure.explained ? null : (
            <p>{t(failure.detail ? keyFromData(failure.detail) : errorKeys(failure.code).message)}</p>
          )}
        </Alert>
      ) : null}
      <FormField label={t('register.code')} error={message('code')}>
        {(control) => (
          <input
            {...control}
            {...register('code')}
            className="field__input"
            type="text"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
        )}
      </FormField>
      <FormField label={t('register.username')} error={message('username')}>
        {(control) => (
          <input
            {...control}
            {...register('username')}
            className="field__input"
            type="text"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
        )}
      </FormField>
      <FormField label={t('register.email')} hint={t('register.emailHint')} error={message('email')}>
        {(control) => (
          <input
            {...control}
            {...register('email')}
            className="field__input"
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
      </FormField>
      <FormField
        label={t('register.password')}
        hint={simplePassword ? t('account.password.ruleSimple') : t('account.password.rule')}
        error={message('password')}
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
        {isSubmitting ? t('register.submitting') : t('register.submit')}
      </button>
    </form>
  );
}
