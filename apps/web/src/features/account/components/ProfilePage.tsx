import { zodResolver } from '@hookform/resolvers/zod';
import type { MeResponse } from '@parcours/domain/entities';
import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { FormField } from '../../../components/ui/FormField';
import { PasswordInput } from '../../../components/ui/PasswordInput';
import { fieldProblems, normaliseError } from '../../../lib/api-errors';
import { errorKeys, useTranslation, keyFromData } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { useTenant } from '../../../lib/tenant';
import { useUpdateProfile } from '../api/update-profile';
import { MyData } from './MyData';
import { SignOutEverywhere } from './SignOutEverywhere';
import {
  fieldModes,
  formValuesOf,
  PROFILE_FIELDS,
  profileFlags,
  profileFormSchema,
  profilePatch,
  type ProfileFormValues,
  type ProfileOutput,
} from '../profile-model';
import '../../../components/ui/form.css';
import '../account.css';

type Outcome = { tone: 'success' } | { tone: 'nothing' } | { tone: 'error'; code: string };

const INPUT_TYPES = {
  lastname: 'text',
  firstname: 'text',
  username: 'text',
  email: 'email',
  birthday: 'date',
};
const AUTOCOMPLETE = {
  lastname: 'family-name',
  firstname: 'given-name',
  username: 'username',
  email: 'email',
  birthday: 'bday',
};

/** /me: the profile form of docs/product.md §5, with the tenant's fields and an on-demand password change. */
export function ProfilePage() {
  const session = useSession();
  const settings = useTenant()?.attributes.settings;
  // The guard renders this screen only for a signed-in user; the tenant is loaded before start.
  if (!session.user || !settings) return null;
  return <ProfileForm user={session.user} settings={settings} />;
}

function ProfileForm({
  user,
  settings,
}: {
  user: MeResponse;
  settings: NonNullable<ReturnType<typeof useTenant>>['attributes']['settings'];
}) {
  const { t } = useTranslation();
  const id = useId();
  const profile = user.profile;
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const mutation = useUpdateProfile(user._id);
  const flags = useMemo(
    () => profileFlags(profile, settings, passwordOpen),
    [profile, settings, passwordOpen],
  );
  const modes = useMemo(() => fieldModes(flags), [flags]);
  const schema = useMemo(() => profileFormSchema(flags), [flags]);
  // useForm takes its options anew on each render, so opening the password change adds its rules.
  const resolver = useMemo(() => zodResolver(schema), [schema]);

  const {
    register,
    handleSubmit,
    reset,
    resetField,
    setError,
    setFocus,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ProfileFormValues, unknown, ProfileOutput>({
    resolver,
    defaultValues: formValuesOf(profile),
  });

  const closePassword = () => {
    setPasswordOpen(false);
    resetField('password');
    resetField('currentPassword');
    clearErrors(['password', 'currentPassword']);
  };

  const onValid = async (parsed: ProfileOutput) => {
    setOutcome(null);
    const patch = profilePatch(profile, modes, parsed, passwordOpen);
    if (Object.keys(patch).length === 0) {
      setOutcome({ tone: 'nothing' });
      return;
    }
    try {
      const answer = await mutation.mutateAsync(patch);
      reset(formValuesOf(answer.profile));
      setPasswordOpen(false);
      setOutcome({ tone: 'success' });
    } catch (error) {
      const formFields: string[] = [...PROFILE_FIELDS, 'password', 'currentPassword'];
      // docs/product.md §3 error object: the alert reads its code; each field problem goes under its field.
      setOutcome({ tone: 'error', code: normaliseError(error, formFields).code });
      let focused = false;
      for (const problem of fieldProblems(error)) {
        const field = formFields.find((name) => name === problem.field);
        if (!field) continue;
        setError(field as keyof ProfileFormValues, { message: problem.key }, { shouldFocus: !focused });
        focused = true;
      }
    }
  };

  const message = (field: keyof ProfileFormValues) => {
    const key = errors[field]?.message;
    return key ? t(keyFromData(key)) : undefined;
  };

  const passwordPanelId = `${id}-password`;

  return (
    <div className="page page--narrow account">
      <h1>{t('account.title')}</h1>
      <p className="account__intro">{t('account.intro')}</p>

      {outcome?.tone === 'success' ? (
        <Alert tone="success" title={t('account.successTitle')}>
          <p>{t('account.successText')}</p>
        </Alert>
      ) : null}
      {outcome?.tone === 'nothing' ? <Alert tone="info">{t('account.nothingChanged')}</Alert> : null}
      {outcome?.tone === 'error' ? (
        <Alert tone="error" title={t('account.errorTitle')}>
          <p>{t(errorKeys(outcome.code).title)}</p>
        </Alert>
      ) : null}

      <form className="form card" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
        {PROFILE_FIELDS.map((field) =>
          modes[field] === 'hidden' ? null : (
            <FormField
              key={field}
              label={t(`account.fields.${field}`)}
              hint={modes[field] === 'locked' ? t('account.emailLocked') : undefined}
              error={message(field)}
            >
              {(control) => (
                <input
                  {...control}
                  {...register(field)}
                  className="field__input"
                  type={INPUT_TYPES[field]}
                  autoComplete={AUTOCOMPLETE[field]}
                  disabled={modes[field] === 'locked'}
                  {...(field === 'email' || field === 'username'
                    ? { autoCapitalize: 'none', spellCheck: false }
                    : {})}
                />
              )}
            </FormField>
          ),
        )}

        <div className="account__password">
          {passwordOpen ? null : (
            <Button
              variant="secondary"
              aria-expanded={false}
              aria-controls={passwordPanelId}
              onClick={() => {
                setPasswordOpen(true);
                // After the fields exist: the learner continues in the opened section.
                setTimeout(() => setFocus('currentPassword'), 0);
              }}
            >
              {t('account.password.open')}
            </Button>
          )}
          <div id={passwordPanelId}>
            {passwordOpen ? (
              <fieldset>
                <legend>{t('account.password.legend')}</legend>
                <FormField
                  label={t('account.password.current')}
                  hint={t('account.password.currentHint')}
                  error={message('currentPassword')}
                >
                  {(control) => (
                    <PasswordInput
                      {...control}
                      {...register('currentPassword')}
                      showLabel={t('login.showPassword')}
                      autoComplete="current-password"
                    />
                  )}
                </FormField>
                <FormField
                  label={t('account.password.new')}
                  hint={flags.simplePassword ? t('account.password.ruleSimple') : t('account.password.rule')}
                  error={message('password')}
                >
                  {(control) => (
                    <PasswordInput
                      {...control}
                      {...register('password')}
                      showLabel={t('login.showPassword')}
                      autoComplete="new-password"
                    />
                  )}
                </FormField>
                <div>
                  <Button variant="ghost" aria-controls={passwordPanelId} onClick={closePassword}>
                    {t('account.password.cancel')}
                  </Button>
                </div>
              </fieldset>
            ) : null}
          </div>
        </div>

        <div className="form__actions">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? t('account.saving') : t('account.save')}
          </Button>
        </div>
      </form>

      <MyData />
      <SignOutEverywhere />
    </div>
  );
}
