import type { BlockView } from '@parcours/domain/entities';
import { GlossaryText } from '../../../components/ui/glossary/GlossaryText';

interface StatementProps {
  id: string;
  html: string;
  terms: BlockView['terms'];
}

/** The block's statement (sanitised HTML) with its glossary terms as buttons. */
export function Statement({ id, html, terms }: StatementProps) {
  return <GlossaryText id={id} html={html} terms={terms} className="statement rich-text" />;
}
