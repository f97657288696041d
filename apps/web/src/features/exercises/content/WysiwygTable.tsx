import { htmlToText, RichText } from '../../../components/ui/RichText';
import { ScrollArea } from '../../../components/ui/ScrollArea';
import { useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';

interface TableContent {
  caption?: string | null;
  head?: string[];
  rows?: string[][];
}

/**
 * wysiwyg-table: a real table (caption, column headers) so screen readers can navigate it; on a
 * phone it scrolls sideways in its own box, with a hint saying so.
 */
export function WysiwygTable({ row }: RowProps) {
  const { t } = useTranslation();
  const table = (row.table ?? {}) as TableContent;
  return (
    <ScrollArea label={table.caption ? htmlToText(table.caption) : t('exercises.table')}>
      <table className="content-table">
        {table.caption ? <caption>{table.caption}</caption> : null}
        {table.head?.length ? (
          <thead>
            <tr>
              {table.head.map((cell, i) => (
                <th key={i} scope="col">
                  <RichText inline html={cell} />
                </th>
              ))}
            </tr>
          </thead>
        ) : null}
        <tbody>
          {(table.rows ?? []).map((cells, r) => (
            <tr key={r}>
              {cells.map((cell, c) => (
                <td key={c}>
                  <RichText inline html={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
