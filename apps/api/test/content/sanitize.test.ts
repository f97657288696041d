import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONTENT_HTML_TAGS } from '@parcours/domain/content-html';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { importFolder } from '../../src/content/importer';
import { sanitizeContentHtml } from '../../src/content/sanitize';
import { parseJson } from '../../src/db/schema';
import { openTestDb } from './helpers';

const MALICIOUS = [
  '<p onclick="steal()">Hello <strong>world</strong></p>',
  '<script>alert(1)</script>',
  '<img src="javascript:alert(1)" onerror="alert(2)" alt="x">',
  '<img src="https://example.com/ok.png" alt="ok">',
  '<a href="javascript:alert(1)">bad</a> <a href="https://example.com" target="_blank">good</a>',
  '<iframe src="https://evil.example"></iframe><style>body{display:none}</style>',
  '<table><tr><td colspan="2" style="color:red">cell</td></tr></table>',
  '<svg><script>alert(1)</script></svg><object data="x"></object>',
].join('\n');

describe('content HTML sanitisation', () => {
  it('keeps the tags it kept before the list was shared with the web app (decision 0033)', () => {
    expect([...CONTENT_HTML_TAGS].sort()).toEqual(
      [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 'ins'].sort(),
    );
  });

  it('keeps formatting, tables, images and links but drops scripts, handlers and javascript: URLs', () => {
    const out = sanitizeContentHtml(MALICIOUS);
    expect(out).toContain('<strong>world</strong>');
    expect(out).toContain('<img src="https://example.com/ok.png" alt="ok" />');
    expect(out).toContain('<td colspan="2">cell</td>');
    expect(out).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">good</a>');
    expect(out).not.toMatch(/script|onclick|onerror|javascript:|iframe|<style|style=|<svg|<object/i);
  });

  it('is applied to every HTML field at import', async () => {
    const t = await openTestDb();
    const dir = mkdtempSync(path.join(tmpdir(), 'parcours-xss-'));
    try {
      const put = (rel: string, text: string) => {
        mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        writeFileSync(path.join(dir, rel), text);
      };
      const html = JSON.stringify(
        '<p onmouseover="x()">Hi<script>alert(1)</script> <a href="javascript:void(0)">l</a></p>',
      );
      put(
        'tenants/x/tenant.yaml',
        `alias: x
name: X
categories: [{ id: c, title: C }]
settings:
  defaultLocale: en
  login: { internal: true, oidc: null }
  invitationCodes: { enabled: false, simplePassword: false }
  certification: { allowed: false, type: certification }
  allowContactTeacher: true
  profile: { fields: { firstname: true, lastname: true, email: true, username: false, birthday: false } }
  requiredDatas: false
  emailNotifications: false
  demoVideoUrl: null
  legal: { cgu: { version: '1', date: '2026-01-01', content: ${html} }, rgpd: null }
`,
      );
      put(
        'tenants/x/courses/c.yaml',
        `id: c
title: C
category: c
terms: [{ id: t, title: T, words: [t], definition: ${html} }]
blocks:
  - id: b
    title: B
    type: exercice
    terms: [t]
    hints: [{ message: ${html}, cost: 1 }]
    statement: { html: ${html} }
    feedbacks: [{ message: ${html} }]
    sections:
      - rows:
          - { type: wysiwyg, html: ${html} }
          - { type: multiple-choice, message: ${html}, choices: [{ value: ${html}, feedback: ${html} }, { value: ok }], expected: [1] }
tree: { children: [{ id: s, children: [{ id: n, block: b }] }] }
`,
      );
      const report = await importFolder(t.db, dir, { filesDir: t.filesDir });
      expect(report.errors).toEqual([]);
      const block = await t.db.selectFrom('courseBlocks').selectAll().executeTakeFirstOrThrow();
      const term = await t.db.selectFrom('courseTerms').selectAll().executeTakeFirstOrThrow();
      const context = await t.db.selectFrom('contexts').selectAll().executeTakeFirstOrThrow();
      const all = [block.content, block.settings, block.solution, term.definition, context.settings].join(
        '\n',
      );
      expect(all).not.toMatch(/script|onmouseover|javascript:/i);
      expect(
        parseJson<{ statement: { html: string } }>(block.content, { statement: { html: '' } }).statement.html,
      ).toBe('<p>Hi <a>l</a></p>');
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
