/** The dialog in front of a playing page (use-player-dialog.ts), and the timed page's start. */
import { OfflineDialog } from '../offline/OfflineDialog';
import type { PlayerDialog } from '../use-player-dialog';
import {
  ErrorDialog,
  FeedbackDialog,
  HintConfirmDialog,
  NoAnswerDialog,
  TimedConfirmDialog,
} from './Dialogs';

export function PlayerDialogs({
  dialog,
  onClose,
  onFeedbackContinue,
  onNoAnswerContinue,
  onHintConfirm,
  onError,
  timed,
}: {
  dialog: PlayerDialog;
  /** Closes the dialog: Stay, a hint's Cancel, the offline notice. */
  onClose: () => void;
  onFeedbackContinue: () => void;
  onNoAnswerContinue: () => void;
  onHintConfirm: () => void;
  onError: () => void;
  /** A timed page waiting for its start: its limit and the two answers. */
  timed: { seconds: number; onStart: () => void; onLater: () => void } | null;
}) {
  if (dialog === null)
    return timed ? (
      <TimedConfirmDialog seconds={timed.seconds} onStart={timed.onStart} onLater={timed.onLater} />
    ) : null;
  switch (dialog.kind) {
    case 'feedback':
      return (
        <FeedbackDialog feedbacks={dialog.feedbacks} index={dialog.index} onContinue={onFeedbackContinue} />
      );
    case 'noAnswer':
      return <NoAnswerDialog onStay={onClose} onContinue={onNoAnswerContinue} />;
    case 'hint':
      return <HintConfirmDialog cost={dialog.cost} onConfirm={onHintConfirm} onCancel={onClose} />;
    case 'error':
      return <ErrorDialog code={dialog.code} onClose={onError} />;
    case 'offline':
      return <OfflineDialog reason={dialog.reason} onClose={onClose} />;
  }
}
