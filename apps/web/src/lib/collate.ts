/**
 * Orders names (programs, courses) the way a French or English reader expects: case and accents
 * set aside first ("école" between "Eau" and "Fer"), then accents, then case, as
 * `Intl.Collator` does for Latin text (`collate.test.ts` compares them).
 *
 * Why not `localeCompare`: its first call loads ICU's collation data, 20–60 ms on a laptop and
 * about four times that on a cheap phone, and the home sorted its program filter on the path to
 * its first content (issue 11, decision 0030). Canonical decomposition (NFD) needs no such data.
 */
const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', đ: 'd', ł: 'l', ı: 'i' };
const MARKS = /\p{M}/gu;
const SPECIAL = /[œæßøđłı]/g;

function baseLetters(text: string): string {
  return text
    .normalize('NFD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(SPECIAL, (c) => LIGATURES[c] ?? c);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareText(a: string, b: string): number {
  return (
    byCodeUnits(baseLetters(a), baseLetters(b)) ||
    // Then accents: the decomposed lower-case forms differ only by their marks.
    byCodeUnits(a.normalize('NFD').toLowerCase(), b.normalize('NFD').toLowerCase()) ||
    // Then case, lower first as ICU does: the opposite of the code units' order.
    byCodeUnits(b, a)
  );
}
