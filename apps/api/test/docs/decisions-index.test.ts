import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 40 item 5: docs/decisions/README.md indexes every decision record, one line each in
 * number order, with the record's status, and every record says its status near its top. A
 * record added without its index line, or without a status, or whose index line says something
 * else than the record, fails here. (Read from the docs: no app, no database.)
 */
const DIR = path.resolve(import.meta.dirname, '../../../../docs/decisions');
const RECORD = /^(\d{4})-[a-z0-9-]+\.md$/;
const STATUS = /(accepted|superseded by \d{4}|amended by \d{4}(?:, \d{4})*)/;

const records = readdirSync(DIR)
  .filter((name) => RECORD.test(name))
  .sort();
const index = readFileSync(path.join(DIR, 'README.md'), 'utf8');

/** `- [0004 — title](0004-file.md) · accepted` lines of the index, in their order. */
const indexLines = [...index.matchAll(/^- \[(\d{4}) — (.+)\]\(([^)]+)\) · (.+)$/gm)].map((m) => ({
  number: m[1]!,
  title: m[2]!,
  file: m[3]!,
  status: m[4]!,
}));

/** The status a record gives itself: its first `Status:` line, within its first lines. */
function recordStatus(file: string): string | undefined {
  const top = readFileSync(path.join(DIR, file), 'utf8').split('\n').slice(0, 8).join('\n');
  return STATUS.exec(/Status: (.*)/.exec(top)?.[1] ?? '')?.[1];
}

function recordTitle(file: string): string {
  const heading = readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .find((line) => line.startsWith('# '));
  return heading?.replace(/^# \d{4} — /, '') ?? '';
}

describe('the index of decision records', () => {
  it('finds records and index lines to compare (a broken pattern would compare nothing)', () => {
    expect(records.length).toBeGreaterThan(40);
    expect(indexLines.length).toBeGreaterThan(40);
  });

  it('has one line per record file, in number order, and no line without a file', () => {
    expect(indexLines.map((l) => l.file)).toEqual(records);
    for (const line of indexLines) expect(line.file.startsWith(`${line.number}-`)).toBe(true);
  });

  it.each(records)('%s has a status line, and the index says the same status and title', (file) => {
    const status = recordStatus(file);
    expect(
      status,
      `${file}: no "Status: accepted | superseded by NNNN | amended by NNNN" near its top`,
    ).toBeDefined();
    const line = indexLines.find((l) => l.file === file);
    expect(line?.status).toBe(status);
    expect(line?.title).toBe(recordTitle(file));
  });

  it('names only records that exist in a "superseded by" or "amended by"', () => {
    const numbers = new Set(records.map((file) => file.slice(0, 4)));
    for (const line of indexLines) {
      for (const n of line.status.match(/\d{4}/g) ?? [])
        expect(numbers.has(n), `${line.file} → ${n}`).toBe(true);
    }
  });
});
