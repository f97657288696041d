import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiFetch } from './api-client';
import { API_BASE_PATH_KEY, apiBase, baseFromTenantHost, normaliseBase, setTenantApiHost } from './api-base';
import { clearAllExceptContext } from './storage';
import { mockApi } from '../test/api-mock';

const ORIGIN = window.location.origin;

afterEach(() => {
  setTenantApiHost(null);
  window.localStorage.clear();
  vi.restoreAllMocks();
});

describe('API base path (SPEC §7)', () => {
  it.each([
    ['/api/', '/api'],
    ['/backend/api//', '/backend/api'],
    ['  /api  ', '/api'],
    ['/', ''],
  ])('normalises %j to %j (trailing slash handled)', (raw, base) => {
    expect(normaliseBase(raw)).toBe(base);
  });

  it.each([
    [`${ORIGIN}/backend/api/`, '/backend/api'],
    ['/edge/api', '/edge/api'],
    [null, null],
    ['http://[broken', null],
  ])('takes the tenant API host %j as %j when it is on our origin', (host, base) => {
    expect(baseFromTenantHost(host, ORIGIN)).toBe(base);
  });

  it('ignores a tenant API host on another origin (no cross-origin calls), with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(baseFromTenantHost('https://api.elsewhere.example/api', ORIGIN)).toBeNull();
    expect(warn).toHaveBeenCalled();
  });

  it('uses the stored base path first, then the tenant host, then /api', async () => {
    expect(apiBase()).toBe('/api');
    setTenantApiHost(`${ORIGIN}/backend/api/`);
    expect(apiBase()).toBe('/backend/api');
    window.localStorage.setItem(API_BASE_PATH_KEY, '/proxy/api/');
    expect(apiBase()).toBe('/proxy/api');
    const fetchMock = mockApi({});
    // The test double answers under /api only: what matters is where the call went.
    await apiFetch('users/me').catch(() => undefined);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/proxy/api/users/me');
  });

  it('keeps the stored base path through a sign-out, like the context', () => {
    window.localStorage.setItem(API_BASE_PATH_KEY, '/proxy/api');
    window.localStorage.setItem('parcours.token', 't');
    clearAllExceptContext();
    expect(window.localStorage.getItem('parcours.token')).toBeNull();
    expect(apiBase()).toBe('/proxy/api');
  });
});
