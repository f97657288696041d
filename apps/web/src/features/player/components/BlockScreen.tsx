import type { BlockView } from '@parcours/domain/entities';
import type { RowCorrection } from '@parcours/domain/exercises/registry';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { PackagePlay, TincanAction, TincanLaunch, TincanScore } from '../../exercises/row-props';
import { usePlayerSlots } from '../player-slots';
import { InteractiveImage } from './InteractiveImage';
import { RowView } from './RowView';
import { Statement } from './Statement';

interface BlockScreenProps {
  block: BlockView;
  /** Unique per page: ids of rows and choices derive from it. */
  idPrefix: string;
  headingRef?: Ref<HTMLHeadingElement>;
  /** One per row in reading order. */
  answers: readonly unknown[];
  onAnswer: (rowIndex: number, value: unknown) => void;
  readOnly: boolean;
  corrections?: readonly (RowCorrection | null)[] | null;
  announce: (message: string) => void;
  onTincanAction?: (action: TincanAction) => void;
  /** A tincan block's module reported its score (not passed to modules inside other blocks). */
  onTincanScore?: (score: TincanScore) => void;
  /** A tincan block being played: its launch, for the learning-record parameters (docs/product.md §7). */
  tincanLaunch?: TincanLaunch | null;
  /** A package page being played (decision 0050): its package can open. */
  packagePlay?: PackagePlay | null;
  /** The package's dialog closed: the player reads the page and the lesson again. */
  onPackageClosed?: () => void;
  onClose: () => void;
  /** Above the statement: hints, a result line, the correction legend. */
  before?: ReactNode;
  /** False while a timed page waits for its start: only the title shows. */
  showContent?: boolean;
}

/** docs/product.md §2 block screen: title, close button, hints, statement, sections and rows. */
export function BlockScreen({
  block,
  idPrefix,
  headingRef,
  answers,
  onAnswer,
  readOnly,
  corrections,
  announce,
  onTincanAction,
  onTincanScore,
  tincanLaunch,
  packagePlay,
  onPackageClosed,
  onClose,
  before,
  showContent = true,
}: BlockScreenProps) {
  const { t } = useTranslation();
  const { rows } = usePlayerSlots();
  const statementId = block.content.statement?.html ? `${idPrefix}-statement` : null;
  const hideTitle = Boolean(block.settings.template?.hideMainTitle);
  const TincanRow = rows['media-tincan'];
  const TableRow = rows['wysiwyg-table'];
  const PackageRow = rows['package'];
  let rowIndex = 0;

  const sectionRows = (placeBefore: boolean) =>
    block.content.sections.map((section, s) => {
      const start = rowIndex;
      rowIndex += section.rows.length;
      const visible = section.rows
        .map((row, i) => ({ row, index: start + i }))
        .filter(({ row }) => (row.settings?.beforeStatement === true) === placeBefore);
      if (visible.length === 0) return null;
      return (
        <section
          key={`${placeBefore ? 'b' : 'a'}${s}`}
          className="block__section"
          aria-labelledby={section.title ? `${idPrefix}-s${s}` : undefined}
        >
          {section.title && !placeBefore ? (
            <h2 id={`${idPrefix}-s${s}`} className="block__section-title">
              {section.title}
            </h2>
          ) : null}
          {visible.map(({ row, index }) => (
            <RowView
              key={index}
              row={row}
              rowIndex={index}
              idPrefix={idPrefix}
              statementId={statementId}
              value={answers[index] ?? null}
              onAnswer={onAnswer}
              readOnly={readOnly}
              correction={corrections?.[index] ?? null}
              announce={announce}
              onTincanAction={onTincanAction}
              terms={block.terms}
            />
          ))}
        </section>
      );
    });

  const beforeStatement = showContent ? sectionRows(true) : null;
  rowIndex = 0;
  const afterStatement = showContent ? sectionRows(false) : null;

  return (
    <article className={`block block--${block.type}`} aria-labelledby={`${idPrefix}-title`}>
      <header className="block__header">
        <h1
          id={`${idPrefix}-title`}
          ref={headingRef}
          tabIndex={-1}
          className={hideTitle ? 'sr-only' : 'block__title'}
        >
          {block.title}
        </h1>
        <button type="button" className="block__close" onClick={onClose} aria-label={t('player.close')}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {showContent ? (
        <>
          {before}
          {beforeStatement}
          {block.content.statement?.html ? (
            <Statement id={`${idPrefix}-statement`} html={block.content.statement.html} terms={block.terms} />
          ) : null}
          {block.content.table && TableRow ? (
            // The block's own table (docs/product.md §3), drawn as a table row is.
            <TableRow
              row={{ type: 'wysiwyg-table', table: block.content.table }}
              rowIndex={-1}
              idPrefix={`${idPrefix}-table`}
              labelledBy={block.content.statement?.html ? `${idPrefix}-statement` : `${idPrefix}-title`}
              value={null}
              onChange={() => undefined}
              readOnly={readOnly}
              correction={null}
              announce={announce}
            />
          ) : null}
          {block.content.interactiveImage ? (
            <InteractiveImage
              image={block.content.interactiveImage}
              idPrefix={`${idPrefix}-image`}
              terms={block.terms}
            />
          ) : null}
          {afterStatement}
          {block.type === 'tincan' && block.content.tincan?.url && TincanRow ? (
            <TincanRow
              row={{ type: 'media-tincan', title: block.title, tincan: block.content.tincan }}
              rowIndex={-1}
              idPrefix={`${idPrefix}-tincan`}
              labelledBy={`${idPrefix}-title`}
              value={null}
              onChange={() => undefined}
              readOnly={readOnly}
              correction={null}
              announce={announce}
              onTincanAction={onTincanAction}
              onTincanScore={onTincanScore}
              tincanLaunch={tincanLaunch}
            />
          ) : null}
          {block.type === 'tincan' && block.content.package && PackageRow ? (
            // A tincan block playing an imported package (decision 0050): the block's module row,
            // as TincanRow gets it, drawn by the registry's package entry (its own dialog).
            <PackageRow
              row={{ type: 'media-tincan', title: block.title, package: block.content.package }}
              rowIndex={-1}
              idPrefix={`${idPrefix}-package`}
              labelledBy={`${idPrefix}-title`}
              value={null}
              onChange={() => undefined}
              readOnly={readOnly}
              correction={null}
              announce={announce}
              packagePlay={packagePlay}
              onPackageClosed={onPackageClosed}
            />
          ) : null}
        </>
      ) : null}
    </article>
  );
}
