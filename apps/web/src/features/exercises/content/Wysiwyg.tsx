import { RichText } from '../../../components/ui/RichText';
import type { RowProps } from '../row-props';

/** wysiwyg: a block of course text. */
export function Wysiwyg({ row }: RowProps) {
  return <RichText className="rich-text" html={typeof row.html === 'string' ? row.html : ''} />;
}
