/**
 * The contract between the player and a row renderer (docs/architecture.md §5: one folder per type).
 * The player owns the answers, a row renders one of them and reports changes.
 */
import type { PublicRowView } from '@parcours/domain/entities';
import type { RowCorrection } from '@parcours/domain/exercises/registry';
import type { ComponentType } from 'react';
import type { GlossaryTerm } from '../../components/ui/glossary/highlight-terms';

export type TincanAction = 'next' | 'close';

/** A learning module's score (xAPI `result.score`): `scaled` in 0..1, or `raw` between `min` (default 0) and `max`. */
export interface TincanScore {
  scaled?: number;
  raw?: number;
  min?: number;
  max?: number;
}

/** A tincan page being played: the launch the server issued with it (`tincanLaunch`), docs/product.md §7. */
export interface TincanLaunch {
  lessonId: string;
  pageId: string;
  launch: string;
}

/** A package page being played (decision 0050): what its launch call names besides the page's launch token. */
export interface PackagePlay {
  lessonId: string;
  pageId: string;
}

/** The documentation-by-mail dialog's props (the dialog itself lives in features/contact). */
export interface DocumentsDialogProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  /** `url`: the download URL the API gave (signed for the learner, docs/api.md "Files"). */
  files: readonly { id: string; name: string; type: string; url?: string }[];
  title?: string;
}

export interface RowProps {
  row: PublicRowView;
  /** Position of the row in the page's reading order (answers follow it). */
  rowIndex: number;
  /** Unique prefix for the ids this row creates. */
  idPrefix: string;
  /** Ids of what names the question (row title or message, else the statement). */
  labelledBy: string;
  /** The learner's answer for this row (see docs/grading.md for each type's shape). */
  value: unknown;
  onChange: (value: unknown) => void;
  /** Answered pages, correction mode, and pages waiting for a timed start. */
  readOnly: boolean;
  /** Correction mode: the graded row with expected answers; null otherwise. */
  correction: RowCorrection | null;
  /** Says something to screen readers through the page's polite live region. */
  announce: (message: string) => void;
  /** Embedded learning modules ask the player to move on or close. */
  onTincanAction?: (action: TincanAction) => void;
  /** Embedded learning modules report their score (tincan blocks only). */
  onTincanScore?: (score: TincanScore) => void;
  /** A tincan block's launch: its module opens with learning-record parameters (docs/product.md §7). */
  tincanLaunch?: TincanLaunch | null;
  /** A package page being played: its package can open (preview and correction cannot launch one). */
  packagePlay?: PackagePlay | null;
  /** The package's dialog closed (or the package finished): the player reads the page and lesson again. */
  onPackageClosed?: () => void;
  /** Sends chosen documents by e-mail (docs/product.md §2 "receive documentation"), when the app provides it. */
  DocumentsDialog?: ComponentType<DocumentsDialogProps>;
  /** The block's glossary: content rows mark its terms as the statement does. */
  terms?: readonly GlossaryTerm[];
}

export type RowComponent = ComponentType<RowProps>;
