import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentTypeOf } from '../../src/files/content-types';
import { copyStore } from '../../src/files/migrate';
import { diskStore, isSafeKey } from '../../src/files/store';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'parcours-store-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('isSafeKey', () => {
  it.each([
    ['ctx/abc.png', true],
    ['uploads/ctx/id.pdf', true],
    ['tincan/ctx/module-1a2b/js/app.js', true],
    ['', false],
    ['/etc/passwd', false],
    ['a/../b', false],
    ['..', false],
    ['a//b', false],
    ['a/./b', false],
    ['a\\b', false],
    ['a/b\n', false],
    ['x'.repeat(1025), false],
  ])('%j → %s', (key, safe) => {
    expect(isSafeKey(key)).toBe(safe);
  });
});

describe('contentTypeOf', () => {
  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['js/APP.JS', 'text/javascript; charset=utf-8'],
    ['a.woff2', 'font/woff2'],
    ['data.bin', 'application/octet-stream'],
    ['noextension', 'application/octet-stream'],
  ])('%s → %s', (name, type) => {
    expect(contentTypeOf(name)).toBe(type);
  });
});

describe('disk store', () => {
  it('puts whole files, reads ranges, lists keys without leftovers, and refuses unsafe keys', async () => {
    const root = tempDir();
    const store = diskStore(root);
    await store.put('a/b.txt', Buffer.from('hello world'), 'text/plain');
    writeFileSync(path.join(root, 'a', 'half.part'), 'x');
    expect(await store.size('a/b.txt')).toBe(11);
    expect(await store.size('a/none.txt')).toBeNull();
    const part = await store.open('a/b.txt', { start: 6, end: 99 });
    const chunks: Buffer[] = [];
    for await (const c of part!.body) chunks.push(c as Buffer);
    expect([Buffer.concat(chunks).toString(), part!.length, part!.range]).toEqual([
      'world',
      5,
      { start: 6, end: 10 },
    ]);
    const keys: string[] = [];
    for await (const k of store.list()) keys.push(k);
    expect(keys).toEqual(['a/b.txt']);
    await expect(store.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(
      'not a stored file key',
    );
  });

  it('copyStore copies what is missing and nothing on a second run', async () => {
    const from = diskStore(tempDir());
    const toRoot = tempDir();
    const to = diskStore(toRoot);
    await from.put('x/1.png', Buffer.from('one'), 'image/png');
    await from.put('x/2.png', Buffer.from('two!'), 'image/png');
    await to.put('x/2.png', Buffer.from('two!'), 'image/png');
    expect(await copyStore(from, to)).toEqual({ copied: 1, present: 1, bytes: 3 });
    expect(await copyStore(from, to)).toEqual({ copied: 0, present: 2, bytes: 0 });
    expect(readFileSync(path.join(toRoot, 'x', '1.png'), 'utf8')).toBe('one');
  });
});
