import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, redactValue } from '../../../src/plugins/log-redaction';

/** The launch credentials travel in a module's address and in Basic headers: never in the logs. */
describe('learning-record credentials in logs', () => {
  it.each([
    '/api/tincan/c/m-1/index.html?endpoint=http%3A%2F%2Fen.localhost%2Fapi%2Fxapi%2F&auth=Basic%20a2V5OnNlY3JldA%3D%3D&registration=x',
    'GET /api/tincan/c/m-1/index.html?auth=Basic+a2V5OnNlY3JldA%3D%3D',
    'authorization: Basic a2V5OnNlY3JldA==',
  ])('%s', (line) => {
    const out = redactText(line);
    expect(out).not.toContain('a2V5OnNlY3JldA');
    expect(out).toContain(REDACTED);
  });

  it('an auth key in a query object', () => {
    expect(redactValue({ auth: 'Basic a2V5OnNlY3JldA==', registration: 'r' })).toEqual({
      auth: REDACTED,
      registration: 'r',
    });
  });
});
