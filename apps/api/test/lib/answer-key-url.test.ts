import { describe, expect, it } from 'vitest';
import { answerKeyUrl } from '../../src/lib/answer-cache';

/**
 * The answer cache's key names the URL without `noCache` (decision 0068): the web app adds a new
 * timestamp to every read, which names nothing the answer is built from.
 */
describe('answerKeyUrl', () => {
  it.each([
    ['/api/lessons/L/pages/current?noCache=1717', '/api/lessons/L/pages/current'],
    ['/api/lessons/L/pages/current?noCache=1&pageId=P', '/api/lessons/L/pages/current?pageId=P'],
    ['/api/lessons/L/pages/current?pageId=P&noCache=1', '/api/lessons/L/pages/current?pageId=P'],
    [
      '/api/lessons/L/pages/current?section=S&noCache=1&pageId=P',
      '/api/lessons/L/pages/current?section=S&pageId=P',
    ],
    ['/api/lessons/L/pages/current?noCache', '/api/lessons/L/pages/current'],
    ['/api/lessons/L/pages/current?noCache=', '/api/lessons/L/pages/current'],
    // Not the parameter: kept as it is.
    ['/api/lessons/L/pages/current?noCacheX=1', '/api/lessons/L/pages/current?noCacheX=1'],
    ['/api/lessons/L/pages/current?pageId=noCache', '/api/lessons/L/pages/current?pageId=noCache'],
    ['/api/lessons?filter[userId]=U&include=course', '/api/lessons?filter[userId]=U&include=course'],
    ['/api/lessons/noCache/pages/current', '/api/lessons/noCache/pages/current'],
    ['/api/users/me', '/api/users/me'],
  ])('%s → %s', (url, key) => {
    expect(answerKeyUrl(url)).toBe(key);
  });
});
