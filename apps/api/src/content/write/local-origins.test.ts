import { describe, expect, it } from 'vitest';
import { hostsServedOn } from './local-origins';

describe('hostsServedOn', () => {
  it.each([
    ['http://localhost:3000', 4000, 'http://localhost:4000'],
    ['http://en.localhost:3000', 4100, 'http://en.localhost:4100'],
    ['http://localhost', 3000, 'http://localhost:3000'],
    ['http://127.0.0.1:3000', 5000, 'http://127.0.0.1:5000'],
    ['http://[::1]:3000', 5000, 'http://[::1]:5000'],
    ['http://localhost:3000/app/', 4000, 'http://localhost:4000/app/'],
    // Public origins are the operator's: written as given.
    ['https://academy.example.org', 4000, 'https://academy.example.org'],
    ['https://localhost.example.org:8443', 4000, 'https://localhost.example.org:8443'],
    // The default port of the scheme is no port.
    ['http://localhost:3000', 80, 'http://localhost'],
    // Not a URL: left to the schema's own checks.
    ['not a url', 4000, 'not a url'],
  ])('%s served on %i is %s', (app, port, expected) => {
    expect(hostsServedOn({ app }, port)).toEqual({ app: expected });
  });

  it('leaves every host as given without a port (tests, the importer called without one) or on port 0', () => {
    const hosts = { app: 'http://localhost:3000', api: 'http://localhost:3000/api' };
    expect(hostsServedOn(hosts, undefined)).toBe(hosts);
    expect(hostsServedOn(hosts, 0)).toBe(hosts);
  });

  it("rewrites the hosts this server answers on, never the preview tool's or another service's", () => {
    expect(
      hostsServedOn(
        {
          app: 'http://localhost:3000',
          api: 'http://localhost:3000/api',
          frontoffice: 'http://localhost:3000',
          backoffice: 'http://localhost:3300',
          player: 'http://localhost:3500',
        },
        4000,
      ),
    ).toEqual({
      app: 'http://localhost:4000',
      api: 'http://localhost:4000/api',
      frontoffice: 'http://localhost:4000',
      backoffice: 'http://localhost:3300',
      player: 'http://localhost:3500',
    });
  });
});
