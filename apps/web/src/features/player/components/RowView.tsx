import type { PublicRowView } from '@parcours/domain/entities';
import type { RowCorrection } from '@parcours/domain/exercises/registry';
import { Suspense } from 'react';
import { CorrectionMark } from '../../../components/ui/CorrectionMark';
import type { GlossaryTerm } from '../../../components/ui/glossary/highlight-terms';
import { RichText } from '../../../components/ui/RichText';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation } from '../../../lib/i18n';
import type { TincanAction } from '../../exercises/row-props';
import { isExerciseRow } from '../page-rows';
import { usePlayerSlots } from '../player-slots';

interface RowViewProps {
  row: PublicRowView;
  rowIndex: number;
  idPrefix: string;
  statementId: string | null;
  value: unknown;
  onAnswer: (rowIndex: number, value: unknown) => void;
  readOnly: boolean;
  correction: RowCorrection | null;
  announce: (message: string) => void;
  onTincanAction?: (action: TincanAction) => void;
  /** The block's glossary, for content rows. */
  terms?: readonly GlossaryTerm[];
}

/** One row: its title and message (unless hidden by its settings), then its renderer. */
export function RowView({
  row,
  rowIndex,
  idPrefix,
  statementId,
  value,
  onAnswer,
  readOnly,
  correction,
  announce,
  onTincanAction,
  terms,
}: RowViewProps) {
  const { t } = useTranslation();
  const { rows, DocumentsDialog, RowAudio } = usePlayerSlots();
  const audioFileId = typeof row.settings?.audioFileId === 'string' ? row.settings.audioFileId : null;
  const Component = rows[row.type];
  const prefix = `${idPrefix}-r${rowIndex}`;
  const showTitle = Boolean(row.title) && row.settings?.hideTitle !== true;
  const showMessage =
    Boolean(row.message) && row.settings?.hideDescription !== true && row.settings?.questionIsHidden !== true;
  const exercise = isExerciseRow(row.type);
  const labelledBy =
    [showTitle ? `${prefix}-title` : null, showMessage ? `${prefix}-message` : null]
      .filter(Boolean)
      .join(' ') ||
    statementId ||
    `${prefix}-fallback`;

  return (
    <div className={`row row--${row.type}`}>
      {showTitle ? (
        <h3 id={`${prefix}-title`} className="row__title">
          {row.title}
        </h3>
      ) : null}
      {showMessage ? (
        <RichText id={`${prefix}-message`} className="row__message rich-text" html={row.message} />
      ) : null}
      {!showTitle && !showMessage && !statementId && exercise ? (
        <p id={`${prefix}-fallback`} className="sr-only">
          {t('player.row.question', { number: rowIndex + 1 })}
        </p>
      ) : null}
      {audioFileId && RowAudio ? (
        <Suspense fallback={null}>
          <RowAudio fileId={audioFileId} autoPlay={row.settings?.autoplay === true} />
        </Suspense>
      ) : null}
      {Component ? (
        <Suspense fallback={<Spinner label={t('common.loading')} />}>
          <Component
            row={row}
            rowIndex={rowIndex}
            idPrefix={prefix}
            labelledBy={labelledBy}
            value={value}
            onChange={(next) => onAnswer(rowIndex, next)}
            readOnly={readOnly}
            correction={correction}
            announce={announce}
            onTincanAction={onTincanAction}
            DocumentsDialog={DocumentsDialog}
            terms={terms}
          />
        </Suspense>
      ) : null}
      {correction ? (
        <p className="row__verdict">
          {/* A row that earned some points is "partly right", never "wrong" then "partly right". */}
          <CorrectionMark
            status={correction.correct ? 'correct' : correction.ratio > 0 ? 'partial' : 'wrong'}
          />{' '}
          {t(
            correction.correct
              ? 'player.correction.rowCorrect'
              : correction.ratio > 0
                ? 'player.correction.rowPartial'
                : 'player.correction.rowWrong',
            { percent: Math.round(correction.ratio * 100) },
          )}
        </p>
      ) : null}
    </div>
  );
}
