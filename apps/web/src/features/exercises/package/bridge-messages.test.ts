import { bridgeMessageOf, BRIDGE_SOURCE } from './bridge-messages';
import { checkedLaunch, UnsafeLaunchError } from './api/launch-package';

const ORIGIN = 'http://localhost:3301';
const frame = { name: 'the bridge frame' } as unknown as Window;
const other = { name: 'a package page nested in it' } as unknown as Window;

describe('bridgeMessageOf: only the launch’s frame, from the packages origin, is heard', () => {
  it.each<[string, { origin: string; source: unknown; data: unknown }, string | null]>([
    [
      'ready from the bridge',
      { origin: ORIGIN, source: frame, data: { source: BRIDGE_SOURCE, type: 'ready' } },
      'ready',
    ],
    [
      'committed',
      { origin: ORIGIN, source: frame, data: { source: BRIDGE_SOURCE, type: 'committed' } },
      'committed',
    ],
    [
      'terminated',
      { origin: ORIGIN, source: frame, data: { source: BRIDGE_SOURCE, type: 'terminated' } },
      'terminated',
    ],
    [
      'error',
      { origin: ORIGIN, source: frame, data: { source: BRIDGE_SOURCE, type: 'error', during: 'start' } },
      'error',
    ],
    [
      'another origin (the app’s own)',
      { origin: 'http://localhost:3300', source: frame, data: { source: BRIDGE_SOURCE, type: 'terminated' } },
      null,
    ],
    [
      'another window of the same origin (the package page)',
      { origin: ORIGIN, source: other, data: { source: BRIDGE_SOURCE, type: 'terminated' } },
      null,
    ],
    ['no source', { origin: ORIGIN, source: null, data: { source: BRIDGE_SOURCE, type: 'ready' } }, null],
    [
      'an opaque origin',
      { origin: 'null', source: frame, data: { source: BRIDGE_SOURCE, type: 'ready' } },
      null,
    ],
    [
      'another sender name',
      { origin: ORIGIN, source: frame, data: { source: 'parcours-player', type: 'terminate' } },
      null,
    ],
    [
      'an unknown type',
      { origin: ORIGIN, source: frame, data: { source: BRIDGE_SOURCE, type: 'token' } },
      null,
    ],
    ['a string', { origin: ORIGIN, source: frame, data: 'action:close' }, null],
    ['null data', { origin: ORIGIN, source: frame, data: null }, null],
  ])('%s', (_name, event, expected) => {
    expect(bridgeMessageOf(event, { origin: ORIGIN, frame })).toBe(expected);
  });

  it('hears nothing while the frame is not there', () => {
    const event = { origin: ORIGIN, source: frame, data: { source: BRIDGE_SOURCE, type: 'ready' } };
    expect(bridgeMessageOf(event, { origin: ORIGIN, frame: null })).toBeNull();
  });
});

describe('checkedLaunch: the player opens only a launch on another origin', () => {
  const APP = 'http://localhost:3300';
  it('takes an address on the origin it names', () => {
    expect(
      checkedLaunch(
        { url: `${ORIGIN}/bridge/abc#k=1`, origin: ORIGIN, expiresAt: '2026-11-27T15:00:00Z' },
        APP,
      ),
    ).toEqual({ url: `${ORIGIN}/bridge/abc#k=1`, origin: ORIGIN, expiresAt: '2026-11-27T15:00:00Z' });
  });
  it.each<[string, unknown]>([
    ['the app’s own origin', { url: `${APP}/bridge#k=1`, origin: APP }],
    ['an origin that is not the address’s', { url: `${ORIGIN}/bridge`, origin: 'http://elsewhere.example' }],
    ['a relative address', { url: '/bridge', origin: ORIGIN }],
    ['a javascript: address', { url: 'javascript:alert(1)', origin: 'null' }],
    ['no address', { origin: ORIGIN }],
    ['nothing', null],
  ])('refuses %s', (_name, body) => {
    expect(() => checkedLaunch(body, APP)).toThrow(UnsafeLaunchError);
  });
});
