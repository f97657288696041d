/** The player's dialogs (docs/product.md §2): feedback, no answer, hint cost, timed start, error. */
import type { ErrorCode } from '@parcours/domain/errors';
import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { RichText } from '../../../components/ui/RichText';
import { errorKeys, useTranslation, exists, keyFromData } from '../../../lib/i18n';
import { feedbackTone, type Feedback } from '../player-model';

/** One feedback at a time, with its position ("2 of 3") so the learner knows more follow. */
export function FeedbackDialog({
  feedbacks,
  index,
  onContinue,
}: {
  feedbacks: readonly Feedback[];
  index: number;
  onContinue: () => void;
}) {
  const { t } = useTranslation();
  const feedback = feedbacks[index];
  if (!feedback) return null;
  const tone = feedbackTone(feedback.preset);
  return (
    <Dialog
      isOpen
      tone={tone}
      title={t(`player.feedback.title.${tone}`)}
      onDismiss={onContinue}
      actions={
        <Button data-autofocus onClick={onContinue}>
          {t('player.feedback.continue')}
        </Button>
      }
    >
      {feedbacks.length > 1 ? (
        <p className="dialog__count">
          {t('player.feedback.position', { index: index + 1, count: feedbacks.length })}
        </p>
      ) : null}
      <RichText html={feedback.message} />
    </Dialog>
  );
}

export function NoAnswerDialog({ onStay, onContinue }: { onStay: () => void; onContinue: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      isOpen
      role="alertdialog"
      tone="warning"
      title={t('player.noAnswer.title')}
      onDismiss={onStay}
      actions={
        <>
          <Button variant="secondary" onClick={onContinue}>
            {t('player.noAnswer.continue')}
          </Button>
          <Button data-autofocus onClick={onStay}>
            {t('player.noAnswer.stay')}
          </Button>
        </>
      }
    >
      <p>{t('player.noAnswer.text')}</p>
    </Dialog>
  );
}

export function HintConfirmDialog({
  cost,
  onConfirm,
  onCancel,
}: {
  cost: number;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      isOpen
      role="alertdialog"
      tone="warning"
      title={t('player.hints.confirmTitle')}
      onDismiss={onCancel}
      actions={
        <>
          <Button variant="secondary" data-autofocus onClick={onCancel}>
            {t('player.hints.cancel')}
          </Button>
          <Button onClick={onConfirm}>{t('player.hints.unlock')}</Button>
        </>
      }
    >
      <p>{t('player.hints.confirmText', { count: cost })}</p>
    </Dialog>
  );
}

/** docs/product.md §2 timed exercise confirmation; "later" goes back to the dashboard. */
export function TimedConfirmDialog({
  seconds,
  onStart,
  onLater,
}: {
  seconds: number;
  onStart: () => void;
  onLater: () => void;
}) {
  const { t } = useTranslation();
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return (
    <Dialog
      isOpen
      role="alertdialog"
      title={t('player.timed.title')}
      actions={
        <>
          <Button variant="secondary" onClick={onLater}>
            {t('player.timed.later')}
          </Button>
          <Button data-autofocus onClick={onStart}>
            {t('player.timed.start')}
          </Button>
        </>
      }
    >
      <p>{t('player.timed.text')}</p>
      <p>
        {minutes > 0
          ? t('player.timed.durationMinutes', { minutes, seconds: rest })
          : t('player.timed.durationSeconds', { seconds })}
      </p>
    </Dialog>
  );
}

/** docs/product.md §8 player errors: the code's title and message, its button or 'OK', then home. */
export function ErrorDialog({ code, onClose }: { code: ErrorCode; onClose: () => void }) {
  const { t } = useTranslation();
  const button = `errors.${code}.button`;
  return (
    <Dialog
      isOpen
      role="alertdialog"
      tone="danger"
      title={t(errorKeys(code).title)}
      actions={
        <Button data-autofocus onClick={onClose}>
          {exists(keyFromData(button)) ? t(keyFromData(button)) : t('player.dialogs.ok')}
        </Button>
      }
    >
      <p>{t(errorKeys(code).message)}</p>
    </Dialog>
  );
}
