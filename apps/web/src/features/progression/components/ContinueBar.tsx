import { ButtonLink } from '../../../components/ui/Button';
import { useTranslation } from '../../../lib/i18n';

interface ContinueBarProps {
  /** Continue exists only when there is somewhere to go (unlocked lessons, a question). */
  show: boolean;
  /** A choice is made: Continue is enabled. */
  ready: boolean;
  busy: boolean;
  /** Says what is missing while Continue is disabled; tied to the button for screen readers. */
  hint: string;
  hintId: string;
  onContinue: () => void;
}

/** The end-of-lesson screens' buttons: back to the dashboard, and Continue once a choice is made. */
export function ContinueBar({ show, ready, busy, hint, hintId, onContinue }: ContinueBarProps) {
  const { t } = useTranslation();
  return (
    <>
      {show && !ready ? (
        <p id={hintId} className="progression__hint">
          {hint}
        </p>
      ) : null}
      <div className="progression__buttons">
        <ButtonLink to="/" variant="secondary">
          {t('common.backToDashboard')}
        </ButtonLink>
        {show ? (
          <button
            type="button"
            className="btn btn--primary"
            disabled={!ready || busy}
            aria-describedby={ready ? undefined : hintId}
            onClick={onContinue}
          >
            {busy ? t('progression.opening') : t('progression.continue')}
          </button>
        ) : null}
      </div>
    </>
  );
}
