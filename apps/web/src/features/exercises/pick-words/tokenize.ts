/**
 * Splits a pick-words text into words and the text between them. The word pattern is the
 * importer's (apps/api/src/content/format.ts parsePickWords), so the n-th word here is position
 * n of the row's `words` list, which is what the answer sends.
 */
export type Segment = { kind: 'word'; text: string; position: number } | { kind: 'text'; text: string };

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

export function tokenize(text: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  let position = 0;
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    if (start > last) segments.push({ kind: 'text', text: text.slice(last, start) });
    segments.push({ kind: 'word', text: match[0], position: position++ });
    last = start + match[0].length;
  }
  if (last < text.length) segments.push({ kind: 'text', text: text.slice(last) });
  return segments;
}

/**
 * The segments to show: the text's own when its words are the row's words, else the row's
 * words alone (a text that no longer matches must still be answerable by position).
 */
export function segmentsOf(text: unknown, words: readonly string[]): Segment[] {
  const fromText = typeof text === 'string' ? tokenize(text) : [];
  const found = fromText.filter((s) => s.kind === 'word');
  if (found.length === words.length && found.every((s, i) => s.text === words[i])) return fromText;
  return words.flatMap((word, position): Segment[] => [
    ...(position > 0 ? [{ kind: 'text' as const, text: ' ' }] : []),
    { kind: 'word', text: word, position },
  ]);
}
