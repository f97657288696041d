import { describe, expect, it } from 'vitest';
import { decodePath, isExternal, matchPath, parsePath, rankPath, resolvePath } from './match';

describe('matchPath', () => {
  it.each([
    // pattern, pathname, params (null: no match)
    ['/', '/', {}],
    ['/', '/login', null],
    ['/login', '/login', {}],
    ['/login', '/login/', {}],
    ['/login', '/LOGIN', {}],
    ['/login', '/logins', null],
    ['/login', '/login/x', null],
    ['/session/:id', '/session/l-1', { id: 'l-1' }],
    ['/session/:id', '/session/', null],
    ['/session/:id', '/session/l-1/page/p-2', null],
    ['/session/:id/page/:pageId', '/session/l-1/page/p-2', { id: 'l-1', pageId: 'p-2' }],
    ['/session/:id/actions', '/session/l-1/actions', { id: 'l-1' }],
    ['/reset/:token', '/reset/a%2Fb', { token: 'a/b' }],
    ['/legal/protection-des-donnees', '/legal/protection-des-donnees', {}],
    ['/a.b', '/a.b', {}],
    ['/a.b', '/axb', null],
    ['*', '/anything/at/all', { '*': 'anything/at/all' }],
    ['/files/*', '/files/a/b', { '*': 'a/b' }],
    ['/files/*', '/files', { '*': '' }],
  ])('%s against %s', (path, pathname, params) => {
    const match = matchPath({ path, end: true }, pathname);
    expect(match?.params ?? null).toEqual(params);
  });

  it('matches only a whole segment when the end is left open', () => {
    expect(matchPath({ path: '/session', end: false }, '/session/l-1')?.pathname).toBe('/session');
    expect(matchPath({ path: '/session', end: false }, '/sessions')).toBeNull();
  });

  it('is case-sensitive when asked', () => {
    expect(matchPath({ path: '/login', caseSensitive: true }, '/Login')).toBeNull();
  });
});

describe('decodePath', () => {
  it.each([
    ['/enseignement/classe%20A', '/enseignement/classe A'],
    ['/reset/a%2Fb', '/reset/a%2Fb'],
    ['/bad/%E0%A4%A', '/bad/%E0%A4%A'],
    ['/caf%C3%A9', '/café'],
  ])('%s → %s', (raw, decoded) => {
    expect(decodePath(raw)).toBe(decoded);
  });
});

describe('rankPath', () => {
  it('puts a static segment before a parameter and a star last', () => {
    const ranked = ['*', '/session/:id', '/session/new', '/'].sort((a, b) => rankPath(b) - rankPath(a));
    expect(ranked).toEqual(['/session/new', '/session/:id', '/', '*']);
  });
});

describe('parsePath and resolvePath', () => {
  it.each([
    ['/login?mode=recover#top', { pathname: '/login', search: '?mode=recover', hash: '#top' }],
    ['/login?', { pathname: '/login', search: '', hash: '' }],
    ['/a#', { pathname: '/a', search: '', hash: '' }],
  ])('parses %s', (to, path) => {
    expect(parsePath(to)).toEqual(path);
  });

  it.each([
    ['/niveaux', '/session/l-1', '/niveaux'],
    ['?page=2', '/', '/'],
    ['page/p-2', '/session/l-1', '/session/l-1/page/p-2'],
    ['../x', '/a/b', '/a/x'],
  ])('resolves %s from %s', (to, from, pathname) => {
    expect(resolvePath(to, from).pathname).toBe(pathname);
  });

  it.each([
    ['https://example.org/x', true],
    ['mailto:a@b.c', true],
    ['//cdn.example.org/x', true],
    ['/login', false],
    ['?page=2', false],
  ])('%s leaves the app: %s', (to, external) => {
    expect(isExternal(to)).toBe(external);
  });
});
