/**
 * What the player renders but does not own: row renderers (features/exercises, features/widgets)
 * and the calculator. app/screens composes them (ARCHITECTURE §2: features do not import each
 * other), so the player stays one feature and each row type one folder.
 */
import { createContext, useContext, type ComponentType } from 'react';
import type { DocumentsDialogProps, RowProps } from '../exercises/row-props';

export interface PlayerSlots {
  rows: Partial<Record<string, ComponentType<RowProps>>>;
  Calculator?: ComponentType<{ onClose: () => void }>;
  DocumentsDialog?: ComponentType<DocumentsDialogProps>;
}

export const PlayerSlotsContext = createContext<PlayerSlots>({ rows: {} });

export function usePlayerSlots(): PlayerSlots {
  return useContext(PlayerSlotsContext);
}
