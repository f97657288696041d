import { outgoingRecord } from './outgoing-record';

type Field = 'title' | 'message' | 'tags' | '_draft';
const tracked: readonly Field[] = ['title', 'message', 'tags', '_draft'];

describe('outgoingRecord (docs/product.md §5 outgoing records)', () => {
  const record = { title: 'T', message: 'M', tags: ['a'], _draft: true, _id: 'x', untracked: 1 };
  const cases: [string, Parameters<typeof outgoingRecord<Field>>[1], Record<string, unknown>][] = [
    ['drops `_` fields and untracked ones', { tracked }, { title: 'T', message: 'M', tags: ['a'] }],
    [
      'an update sends only what changed',
      { tracked, before: { title: 'T', message: 'old', tags: ['a'] } },
      { message: 'M' },
    ],
    [
      'a forced replacement sends every tracked field',
      { tracked, before: { title: 'T', message: 'M', tags: ['a'] }, replace: true },
      { title: 'T', message: 'M', tags: ['a'] },
    ],
    [
      'a field the server has not got is sent',
      { tracked, before: { title: 'T' } },
      { message: 'M', tags: ['a'] },
    ],
    ['nothing changed: nothing to send', { tracked, before: { title: 'T', message: 'M', tags: ['a'] } }, {}],
  ];
  it.each(cases)('%s', (_name, options, expected) => {
    expect(outgoingRecord(record, options)).toEqual(expected);
  });

  it('leaves out undefined values but sends null (a cleared field)', () => {
    expect(outgoingRecord({ title: undefined, message: null }, { tracked })).toEqual({ message: null });
  });
});
