import { describe, expect, it } from 'vitest';
import { readCmi5Structure } from '../../../src/content/packages/cmi5-structure';

/** Issue 39 item 1: cmi5.xml read whole, and the importer's refusals (cmi5 §3, §8.1, §13, §14). */
const course = (body: string, id = 'https://example.org/c') => `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${id}"><title><langstring lang="en">Course</langstring></title></course>
  ${body}
</courseStructure>`;
const au = (id: string, url = 'a.html', extra = '') =>
  `<au id="${id}"${extra}><title><langstring lang="en">${id}</langstring></title><url>${url}</url></au>`;
const files = new Map([
  ['a.html', 1],
  ['b/index.html', 1],
]);

describe('cmi5 course structure', () => {
  it('reads blocks and AUs in document order, each AU with the blocks holding it', () => {
    const s = readCmi5Structure(
      course(`${au('https://example.org/au/0')}
        <block id="https://example.org/b/1"><title><langstring lang="en">One</langstring></title>
          ${au('https://example.org/au/1', 'b/index.html?x=1', ' moveOn="Completed" launchMethod="OwnWindow"')}
          <block id="https://example.org/b/2"><title><langstring lang="en">Two</langstring></title>${au('https://example.org/au/2')}</block>
        </block>
        ${au('https://example.org/au/3', 'https://cdn.example.org/au3/index.html')}`),
      files,
    );
    expect(s.aus.map((a) => [a.id, a.url, a.blocks])).toEqual([
      ['https://example.org/au/0', 'a.html', []],
      ['https://example.org/au/1', 'b/index.html?x=1', ['https://example.org/b/1']],
      ['https://example.org/au/2', 'a.html', ['https://example.org/b/1', 'https://example.org/b/2']],
      ['https://example.org/au/3', 'https://cdn.example.org/au3/index.html', []],
    ]);
    expect(s.aus[1]).toMatchObject({ moveOn: 'Completed', launchMethod: 'OwnWindow' });
    expect(s.blocks).toEqual([
      { id: 'https://example.org/b/1', title: 'One', parent: null },
      { id: 'https://example.org/b/2', title: 'Two', parent: 'https://example.org/b/1' },
    ]);
  });

  it('takes a course structure alone when its AUs are at absolute URLs', () => {
    const s = readCmi5Structure(
      course(au('https://example.org/au/0', 'http://example.com/index.html')),
      null,
    );
    expect(s.aus[0]?.url).toBe('http://example.com/index.html');
  });

  it.each([
    ['a course id that is not an IRI', course(au('https://example.org/au/0'), 'example.org/c'), /not an IRI/],
    [
      'a block id that is not an IRI',
      course(`<block id="example.org/b">${au('https://example.org/au/0')}</block>`),
      /not an IRI/,
    ],
    ['an AU id that is not an IRI', course(au('example.org/au')), /not an IRI/],
    [
      'an objective id that is not an IRI',
      course(`<objectives><objective id="example.org/o"/></objectives>${au('https://example.org/au/0')}`),
      /not an IRI/,
    ],
    [
      'a duplicated AU id',
      course(au('https://example.org/au/0') + au('https://example.org/au/0')),
      /used twice/,
    ],
    [
      'a duplicated block id',
      course(
        `<block id="https://example.org/b">${au('https://example.org/au/0')}</block><block id="https://example.org/b">${au('https://example.org/au/1')}</block>`,
      ),
      /used twice/,
    ],
    [
      'a URL with endpoint in its query',
      course(au('https://example.org/au/0', 'a.html?endpoint=http://x')),
      /endpoint/,
    ],
    ['a URL with a space', course(au('https://example.org/au/0', 'http://example.com index.html')), /space/],
    ['a missing launch file', course(au('https://example.org/au/0', 'missing.html')), /not in the package/],
    ['a path from the root', course(au('https://example.org/au/0', '/a.html')), /root/],
    ['no AU', course(''), /no AU/],
  ])('refuses %s', (_what, xml, message) => {
    expect(() => readCmi5Structure(xml, files)).toThrow(message);
  });

  it('refuses a relative URL when the course comes without its zip', () => {
    expect(() => readCmi5Structure(course(au('https://example.org/au/0', 'index.html')), null)).toThrow(
      /without a zip/,
    );
  });
});
