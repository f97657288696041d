import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { useTranslation } from '../../../lib/i18n';

/** Why the player cannot go on without the network (decision 0013). */
export type OfflineStop = 'timed' | 'tincan' | 'multiblock' | 'conditions' | 'notStored' | 'needsNetwork';

/** Offline, a page the device cannot play: says why; the learner stays where they are. */
export function OfflineDialog({ reason, onClose }: { reason: OfflineStop; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      isOpen
      role="alertdialog"
      tone="warning"
      title={t('offline.stop.title')}
      onDismiss={onClose}
      actions={
        <Button data-autofocus onClick={onClose}>
          {t('offline.stop.ok')}
        </Button>
      }
    >
      <p>{t(`offline.stop.${reason}`)}</p>
    </Dialog>
  );
}
