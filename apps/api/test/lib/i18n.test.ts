import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, fill, t } from '../../src/lib/i18n';

/**
 * Issue 40 item 4: every text the server writes for a person is in both of its catalogues
 * (src/locales), with the same keys and the same placeholders, and no source file holds French
 * text of its own (the catalogues are the one place a translator looks).
 */

function flatten(node: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (typeof value === 'string') out.set(`${prefix}${key}`, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe("the server's catalogues", () => {
  const fr = flatten(CATALOGUES.fr);
  const en = flatten(CATALOGUES.en);

  it('hold the same keys, each a non-empty text with the same placeholders', () => {
    expect([...en.keys()].sort()).toEqual([...fr.keys()].sort());
    for (const [key, text] of fr) {
      expect(text.trim(), key).not.toBe('');
      expect(en.get(key)?.trim(), key).not.toBe('');
      expect(placeholders(en.get(key) ?? ''), key).toEqual(placeholders(text));
    }
  });

  it('t reads a key in the language asked and fills its placeholders', () => {
    expect(t('fr', 'mail.documents.subject', { tenant: 'Acme' })).toBe('Acme : vos documents');
    expect(t('en', 'mail.documents.subject', { tenant: 'Acme' })).toBe('Acme: your documents');
    // A placeholder left without a value stays visible rather than silently empty.
    expect(fill('{{a}} and {{b}}', { a: 1 })).toBe('1 and {{b}}');
  });
});

/** Letters and signs English text does not use: a string holding one is French. */
const FRENCH = /[àâçéèêëîïôûùüÿœæ«»]/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The string and template literals of a file (comments are not texts anyone reads). */
function literals(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

describe('server texts outside the catalogues', () => {
  const src = path.resolve(import.meta.dirname, '../../src');

  it('no source file of the API holds French text', () => {
    const found = sourceFiles(src).flatMap((file) =>
      literals(file)
        .filter((l) => FRENCH.test(l.text))
        .map((l) => `${path.relative(src, file)}:${l.line}: ${l.text.slice(0, 60)}`),
    );
    expect(found).toEqual([]);
  });

  it('would find one (the check can fail)', () => {
    const file = path.join(src, 'lib/i18n.ts');
    expect(literals(file).length).toBeGreaterThan(0);
    expect(FRENCH.test('Lien expiré')).toBe(true);
    expect(FRENCH.test('the learner’s lessons')).toBe(false);
  });
});
