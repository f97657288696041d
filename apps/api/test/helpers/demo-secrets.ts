import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** The demo content (content/demo): the browser journeys read it from here too, without the API. */
const DEMO = path.resolve(import.meta.dirname, '../../../../content/demo');

/**
 * What grades an answer in the demo content, read from the content files themselves (not from the
 * server's public views): the API's answer-key tests and the browser's (e2e, the served HTML)
 * search what a learner receives for these strings.
 */

/** Keys whose values grade an answer or tell it apart, in the content files. */
const SECRET_KEYS = new Set([
  'expected',
  'accept',
  'answers',
  'match',
  'feedback',
  'feedbacks',
  'hints',
  'solution',
  'validators',
  'correction',
]);

export const rawCourses = (tenant: string) => {
  const dir = path.join(DEMO, 'tenants', tenant, 'courses');
  return readdirSync(dir).map((name) => parse(readFileSync(path.join(dir, name), 'utf8')) as unknown);
};

/** Strings under an answer key (secrets) and everywhere else (public), of one tenant's courses. */
export function stringsOf(tenant: string): { secrets: Set<string>; publics: Set<string> } {
  const secrets = new Set<string>();
  const publics = new Set<string>();
  const walk = (value: unknown, secret: boolean) => {
    if (typeof value === 'string') (secret ? secrets : publics).add(value.trim());
    // A public number (a zone's height of 112 px) would show in a response like the answer "112".
    else if (typeof value === 'number') (secret ? secrets : publics).add(String(value));
    else if (Array.isArray(value)) value.forEach((v) => walk(v, secret));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, secret || SECRET_KEYS.has(k));
  };
  for (const course of rawCourses(tenant)) walk(course, false);
  // A value that the learner sees anyway (a choice's text that is also the expected one) is no secret.
  for (const p of publics) secrets.delete(p);
  return {
    secrets: new Set([...secrets].filter((s) => s.length >= 3 && ![...publics].some((p) => p.includes(s)))),
    publics,
  };
}

/**
 * A secret as it would be written in a response (JSON escapes quotes), standing as its own word:
 * "112" is found in "call 112" but not inside an id or a hash.
 */
export function pattern(secret: string): RegExp {
  const escaped = JSON.stringify(secret)
    .slice(1, -1)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`);
}
