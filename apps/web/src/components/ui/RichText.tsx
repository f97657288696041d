import { useSanitizedHtml } from '../../lib/sanitize-html';

// Where the app's components read content HTML from (decision 0033).
export { htmlToText } from '../../lib/sanitize-html';

interface RichTextProps {
  html: string | null | undefined;
  /** span for inline labels (choices), div for blocks of text. */
  inline?: boolean;
  className?: string;
  id?: string;
}

/** Course HTML, cleaned again in the browser before it is rendered (lib/sanitize-html.ts). */
export function RichText({ html, inline = false, className, id }: RichTextProps) {
  const clean = useSanitizedHtml(html ?? '');
  const Tag = inline ? 'span' : 'div';
  return <Tag id={id} className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
