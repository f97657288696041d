/**
 * What the player renders but does not own: row renderers (features/exercises, features/widgets)
 * and the calculator. app/screens composes them (docs/architecture.md §2: features do not import each
 * other), so the player stays one feature and each row type one folder.
 */
import { createContext, useContext, type ComponentType } from 'react';
import type { DocumentsDialogProps, RowProps } from '../exercises/row-props';

/** A file of the resources list; `url` is the one the API gave (signed for the learner). */
export interface SlotFile {
  id: string;
  name: string;
  url: string;
  mimeType?: string;
  fileType?: string;
}

export interface PlayerSlots {
  rows: Partial<Record<string, ComponentType<RowProps>>>;
  Calculator?: ComponentType<{ onClose: () => void }>;
  DocumentsDialog?: ComponentType<DocumentsDialogProps>;
  /** Opens a resource file in its widget (PDF viewer, sound player, video dialog). */
  FileViewer?: ComponentType<{ file: SlotFile; onClose: () => void }>;
  /** Plays a row's own sound (row setting `audioFileId`). */
  RowAudio?: ComponentType<{ fileId: string; autoPlay: boolean }>;
  /** Shown instead of the player when the lesson id is unknown (features/errors). */
  LessonNotFound?: ComponentType;
}

export const PlayerSlotsContext = createContext<PlayerSlots>({ rows: {} });

export function usePlayerSlots(): PlayerSlots {
  return useContext(PlayerSlotsContext);
}
