import { GlossaryText } from '../../../components/ui/glossary/GlossaryText';
import type { RowProps } from '../row-props';

/** wysiwyg: a block of course text, its glossary terms marked as in the statement. */
export function Wysiwyg({ row, terms = [] }: RowProps) {
  return (
    <GlossaryText className="rich-text" html={typeof row.html === 'string' ? row.html : ''} terms={terms} />
  );
}
