import { describe, expect, it } from 'vitest';
import { originOf, parseCorrectionMessage, parsePreviewMessage, trustedOrigins } from './window-messages';

const SELF = 'http://localhost:3000';
const BO = 'https://bo.example.com';
const trusted = trustedOrigins(SELF, { backoffice: `${BO}/admin`, app: SELF });

const block = {
  title: 'Fractions',
  type: 'exercice',
  content: {
    statement: { html: '<p>Pick one</p>' },
    sections: [{ rows: [{ type: 'multiple-choice', choices: [{ value: 'a' }, { value: 'b' }] }] }],
  },
  solution: {
    feedbacks: [],
    validators: [{ section: 0, row: 0, type: 'multiple-choice', expected: [1], feedbacks: {} }],
  },
};

describe('originOf and trustedOrigins', () => {
  it.each([
    ['https://bo.example.com/admin/x', 'https://bo.example.com'],
    ['bo.example.com', 'https://bo.example.com'],
    ['http://localhost:3300/', 'http://localhost:3300'],
    ['', null],
    [null, null],
    ['http://', null],
    ['HTTPS://BO.Example.com:443/x', 'https://bo.example.com'],
    ['http://user:pw@localhost:80/', 'http://localhost'],
    ['https://bo.example.com:8443?x', 'https://bo.example.com:8443'],
    ['not a url at all', null],
  ])('%s → %s', (url, origin) => {
    expect(originOf(url)).toBe(origin);
  });

  it('lists our origin first, then the back office and the app, without duplicates', () => {
    expect(trusted).toEqual([SELF, BO]);
    expect(trustedOrigins(SELF, null)).toEqual([SELF]);
  });
});

describe('parsePreviewMessage', () => {
  it.each([
    ['a block from the back office', { origin: BO, data: { block } }, 'block'],
    ['a block from our own origin', { origin: SELF, data: { block } }, 'block'],
    ['a block from elsewhere', { origin: 'https://evil.example', data: { block } }, 'wrong-origin'],
    ['our own mounted echo', { origin: SELF, data: 'mounted' }, 'ignored'],
    ['null data', { origin: BO, data: null }, 'ignored'],
    [
      'devtools chatter',
      { origin: 'https://evil.example', data: { source: 'react-devtools-bridge' } },
      'ignored',
    ],
    ['no block', { origin: BO, data: { foo: 1 } }, 'malformed'],
    ['a block without title', { origin: BO, data: { block: { ...block, title: '' } } }, 'malformed'],
    ['an unknown block type', { origin: BO, data: { block: { ...block, type: 'video' } } }, 'malformed'],
    [
      'sections not a list',
      { origin: BO, data: { block: { ...block, content: { sections: 'x' } } } },
      'malformed',
    ],
    [
      'a validator of an unknown type',
      {
        origin: BO,
        data: {
          block: {
            ...block,
            solution: {
              feedbacks: [],
              validators: [{ section: 0, row: 0, type: 'essay', expected: 1, feedbacks: {} }],
            },
          },
        },
      },
      'malformed',
    ],
  ])('%s → %s', (_what, event, kind) => {
    expect(parsePreviewMessage(event, trusted).kind).toBe(kind);
  });

  it('names the received and the expected origins', () => {
    expect(parsePreviewMessage({ origin: 'https://evil.example', data: { block } }, trusted)).toEqual({
      kind: 'wrong-origin',
      received: 'https://evil.example',
      expected: [SELF, BO],
    });
  });

  it('fills defaults: hints as objects, settings all on, empty solution and terms', () => {
    const { solution: _solution, ...slide } = {
      ...block,
      type: 'slide',
      settings: { hints: ['Look again', { message: 'Costly', cost: 2 }] },
    };
    const out = parsePreviewMessage({ origin: BO, data: { block: slide } }, trusted);
    expect(out.kind).toBe('block');
    if (out.kind !== 'block') return;
    expect(out.block.settings.hints).toEqual([
      { message: 'Look again', cost: 0 },
      { message: 'Costly', cost: 2 },
    ]);
    expect(out.block.solution).toEqual({ feedbacks: [], validators: [] });
    expect(out.settings).toEqual({ hints: true, feedbacks: true, retry: true });
    expect(out.block.id).toBe('preview-block');
  });

  it('reports where a payload is wrong, with at most ten issues', () => {
    const rows = Array.from({ length: 30 }, () => ({ kind: 'no type' }));
    const out = parsePreviewMessage(
      { origin: BO, data: { block: { ...block, content: { sections: [{ rows }] } } } },
      trusted,
    );
    expect(out.kind).toBe('malformed');
    if (out.kind !== 'malformed') return;
    expect(out.issues.length).toBe(10);
    expect(out.issues[0]).toMatch(/^block\.content\.sections\.0\.rows\.0\.type: /);
  });
});

describe('parseCorrectionMessage', () => {
  it.each([
    [
      { page: 'p1', lesson: 'l1' },
      { kind: 'page', page: 'p1', lesson: 'l1' },
    ],
    [
      { page: { id: 'p1' }, lesson: { id: 'l1' } },
      { kind: 'page', page: 'p1', lesson: 'l1' },
    ],
    [{ page: 'p1' }, { kind: 'page', page: 'p1', lesson: null }],
    [{ lesson: 'l1' }, { kind: 'malformed' }],
    [{ page: '' }, { kind: 'malformed' }],
    [{ page: 42 }, { kind: 'malformed' }],
  ])('%j → %j', (data, expected) => {
    expect(parseCorrectionMessage({ origin: BO, data }, trusted)).toMatchObject(expected);
  });

  it('refuses another origin and ignores plain strings', () => {
    expect(
      parseCorrectionMessage({ origin: 'https://evil.example', data: { page: 'p1' } }, trusted).kind,
    ).toBe('wrong-origin');
    expect(parseCorrectionMessage({ origin: BO, data: 'mounted' }, trusted).kind).toBe('ignored');
  });
});
