import { zodResolver } from '@hookform/resolvers/zod';
import type { ContextSettings, MeResponse } from '@parcours/domain/entities';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { FormField } from '../../../components/ui/FormField';
import { errorCodeOf, fieldProblems } from '../../../lib/api-errors';
import { errorKeys, useTranslation, keyFromData } from '../../../lib/i18n';
import { useUpdateProfile } from '../api/update-profile';
import {
  gatePatch,
  gateSchema,
  gateValuesOf,
  needsTerms,
  type GateFormValues,
  type GateOutput,
} from '../gate-model';
import '../../../components/ui/form.css';
import '../account.css';

interface RequiredDataGateProps {
  user: MeResponse;
  settings: ContextSettings;
}

const FIELDS = ['lastname', 'firstname', 'birthday'] as const;
const INPUT = {
  lastname: { type: 'text', autoComplete: 'family-name' },
  firstname: { type: 'text', autoComplete: 'given-name' },
  birthday: { type: 'date', autoComplete: 'bday' },
} as const;

/**
 * Shown instead of any signed-in screen while `needsRequiredDatas` is true (docs/product.md §5): the learner
 * gives the missing data and accepts the current terms, then the screen they asked for appears
 * (the saved user no longer needs it). Legal texts open in a new tab so the form is kept.
 */
export function RequiredDataGate({ user, settings }: RequiredDataGateProps) {
  const { t } = useTranslation();
  const profile = user.profile;
  const terms = needsTerms(profile, settings);
  const schema = useMemo(() => gateSchema(terms), [terms]);
  const [failure, setFailure] = useState<string | null>(null);
  const mutation = useUpdateProfile(user._id);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<GateFormValues, unknown, GateOutput>({
    resolver: zodResolver(schema),
    defaultValues: gateValuesOf(profile),
  });

  const onValid = async (parsed: GateOutput) => {
    setFailure(null);
    try {
      await mutation.mutateAsync(gatePatch(profile, parsed, terms));
    } catch (error) {
      setFailure(errorCodeOf(error));
      for (const problem of fieldProblems(error)) {
        const field =
          problem.field === 'legal'
            ? 'acceptTerms'
            : [...FIELDS, 'acceptTerms'].find((f) => f === problem.field);
        if (field) setError(field as keyof GateFormValues, { message: problem.key });
      }
    }
  };

  const message = (field: keyof GateFormValues) => {
    const key = errors[field]?.message;
    return key ? t(keyFromData(key)) : undefined;
  };
  const termsError = message('acceptTerms');
  const cgu = settings.legal.cgu;

  return (
    <div className="page page--narrow account gate">
      <h1>{t('gate.title')}</h1>
      <p className="account__intro">{t('gate.intro')}</p>
      {failure ? (
        <Alert tone="error" title={t('account.errorTitle')}>
          <p>{t(errorKeys(failure).title)}</p>
        </Alert>
      ) : null}
      <form className="form card" noValidate onSubmit={(event) => void handleSubmit(onValid)(event)}>
        {FIELDS.map((field) => (
          <FormField key={field} label={t(`account.fields.${field}`)} error={message(field)}>
            {(control) => (
              <input
                {...control}
                {...register(field)}
                className="field__input"
                type={INPUT[field].type}
                autoComplete={INPUT[field].autoComplete}
                required
              />
            )}
          </FormField>
        ))}

        {terms && cgu ? (
          <div className="gate__terms">
            <p>{t('gate.termsIntro', { version: cgu.version })}</p>
            <ul className="gate__links">
              <li>
                <a href="/legal/mentions" target="_blank" rel="noopener">
                  {t('gate.readTerms')} <span className="sr-only">{t('common.newTab')}</span>
                </a>
              </li>
              <li>
                <a href="/legal/protection-des-donnees" target="_blank" rel="noopener">
                  {t('gate.readDataProtection')} <span className="sr-only">{t('common.newTab')}</span>
                </a>
              </li>
            </ul>
            <div className="field">
              <div className="check">
                <input
                  id="gate-accept-terms"
                  type="checkbox"
                  {...register('acceptTerms')}
                  aria-invalid={termsError ? true : undefined}
                  aria-describedby={termsError ? 'gate-accept-terms-error' : undefined}
                />
                <label htmlFor="gate-accept-terms">{t('gate.acceptTerms')}</label>
              </div>
              {termsError ? (
                <p id="gate-accept-terms-error" className="field__error">
                  {termsError}
                </p>
              ) : null}
            </div>
          </div>
        ) : null}

        <div className="form__actions">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? t('account.saving') : t('gate.submit')}
          </Button>
        </div>
      </form>
    </div>
  );
}
