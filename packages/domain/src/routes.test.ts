import { describe, expect, it } from 'vitest';
import { isDrawnPath, networkOnlyPatterns, paramsOf, pathPattern, ROUTE_TABLE, routeEntryOf } from './routes';

describe('the one route table (decision 0060)', () => {
  it('writes each path as a pattern for code without a router', () => {
    expect(pathPattern('/')).toBe('^\\/$');
    const player = new RegExp(pathPattern('/session/:id/page/:pageId'));
    expect(player.test('/session/l1/page/p1')).toBe(true);
    expect(player.test('/session/l1/page/p1/')).toBe(true);
    expect(player.test('/session/l1/page/')).toBe(false);
    expect(player.test('/session/l1/page/p1/x')).toBe(false);
    expect(new RegExp(pathPattern('/legal/mentions')).test('/legalXmentions')).toBe(false);
  });

  it('matches every pathname to at most one route, each path to itself', () => {
    for (const route of ROUTE_TABLE) {
      const sample = route.path.replace(/:(\w+)/g, 'x$1');
      const matches = ROUTE_TABLE.filter((other) => new RegExp(pathPattern(other.path)).test(sample));
      expect(matches.map((m) => m.path)).toEqual([route.path]);
      expect(routeEntryOf(sample)?.path).toBe(route.path);
    }
    expect(routeEntryOf('/no/such/page')).toBeUndefined();
  });

  it('draws the home and the player pages on the server, nothing else', () => {
    expect(['/', '/session/l1', '/session/l1/', '/session/l1/page/p1'].map(isDrawnPath)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['/niveaux', '/session/l1/actions', '/login', '/sessions', ''].map(isDrawnPath)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("reads a path's parameters, decoded, and refuses what is not that path", () => {
    expect(paramsOf('/session/:id/page/:pageId', '/session/l%201/page/p1')).toEqual({
      id: 'l 1',
      pageId: 'p1',
    });
    expect(paramsOf('/session/:id', '/session/l1/')).toEqual({ id: 'l1' });
    expect(paramsOf('/session/:id', '/session/l1/page/p1')).toBeNull();
    // A malformed escape is no lesson id.
    expect(paramsOf('/session/:id', '/session/%E0%A4%A')).toBeNull();
  });

  it('leaves the back office pages to the network in the service worker', () => {
    const patterns = networkOnlyPatterns();
    const networkOnly = (pathname: string) => patterns.some((pattern) => pattern.test(pathname));
    expect(['/preview', '/correction', '/correction/p1', '/correction/l1/page/p1'].every(networkOnly)).toBe(
      true,
    );
    expect(['/', '/session/l1', '/previewer', '/login'].some(networkOnly)).toBe(false);
  });
});
