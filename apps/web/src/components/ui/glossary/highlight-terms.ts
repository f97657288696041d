/**
 * Glossary terms in course text (docs/product.md §3 CourseTerm): each occurrence of a term's words becomes
 * a button that opens the definition. Runs on HTML already sanitised; only text outside links
 * and buttons is touched. Used by the statement and by content rows.
 */
import type { BlockView } from '@parcours/domain/entities';

export type GlossaryTerm = BlockView['terms'][number];

/** docs/product.md §9: the glossary loop stops after 100 matches. */
export const GLOSSARY_MATCH_CAP = 100;

/**
 * On the server (prerender/signed-in.tsx, decision 0046), which has no `document`: a DOM of its
 * own to build the highlighted HTML in, so the server's page has the terms' buttons too.
 */
let serverDocument: (() => Document) | null = null;

export function setServerDocument(make: (() => Document) | null): void {
  serverDocument = make;
}

/** NodeFilter.SHOW_TEXT: a server's DOM has no NodeFilter global. */
const SHOW_TEXT = 0x4;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function highlightTerms(
  cleanHtml: string,
  terms: readonly GlossaryTerm[],
  buttonLabel: (title: string) => string,
): string {
  const entries = terms
    .flatMap((term, index) => term.words.filter(Boolean).map((word) => ({ word, index })))
    .sort((a, b) => b.word.length - a.word.length);
  if (entries.length === 0) return cleanHtml;
  const byWord = new Map(entries.map((e) => [e.word.toLocaleLowerCase(), e.index]));
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(${entries.map((e) => escape(e.word)).join('|')})(?![\\p{L}\\p{N}])`,
    'giu',
  );
  const document = serverDocument?.() ?? globalThis.document;
  const template = document.createElement('template');
  template.innerHTML = cleanHtml;
  const walker = document.createTreeWalker(template.content, SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest('a, button')) nodes.push(node as Text);
  }
  let matches = 0;
  for (const node of nodes) {
    if (matches >= GLOSSARY_MATCH_CAP) break;
    const text = node.data;
    pattern.lastIndex = 0;
    const fragment = document.createDocumentFragment();
    let last = 0;
    for (let m = pattern.exec(text); m && matches < GLOSSARY_MATCH_CAP; m = pattern.exec(text)) {
      const index = byWord.get(m[0].toLocaleLowerCase());
      if (index === undefined) continue;
      matches++;
      fragment.append(text.slice(last, m.index));
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'glossary-term';
      button.dataset.term = String(index);
      button.setAttribute('aria-haspopup', 'dialog');
      button.setAttribute('aria-expanded', 'false');
      button.setAttribute('aria-label', buttonLabel(m[0]));
      button.textContent = m[0];
      fragment.append(button);
      last = m.index + m[0].length;
    }
    if (last === 0) continue;
    fragment.append(text.slice(last));
    node.replaceWith(fragment);
  }
  return template.innerHTML;
}
