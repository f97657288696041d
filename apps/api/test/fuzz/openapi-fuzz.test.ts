import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { hosts, ids } from '../helpers/fixtures';
import { login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';

/**
 * Issue 10: every route of the OpenAPI document, with generated path ids, query parameters and
 * bodies (NUL, lone surrogates, huge strings, wrong types, unicode, the fixtures' real ids), as
 * an anonymous visitor and as a learner: no answer may be a 5xx. Bounded in requests and time,
 * and deterministic (FUZZ_SEED picks another run), on whichever database the suite runs.
 */
const MAX_REQUESTS = 2_000;
const TIME_BUDGET_MS = 50_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

// Sign-in with SSO fetches the identity provider's discovery document over the network: an
// unreachable provider is an upstream failure, not an input one. Covered by identity-oidc tests.
const EXCLUDED = [/^\/api\/auth\/oidc\//];

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyKeys: string[] | null;
}

interface OpenApiParameter {
  in: string;
  name: string;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

let t: TestContext;
let token: string;
let operations: Operation[] = [];

beforeAll(async () => {
  t = await startTestApp();
  token = await login(t.app, 'anna@example.test');
  const doc = (
    await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { host: hosts.alpha } })
  ).json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  operations = Object.entries(doc.paths)
    .flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => ['get', 'post', 'patch', 'put', 'delete'].includes(method))
        .map(([method, op]) => {
          const params = op.parameters ?? [];
          const json = op.requestBody?.content?.['application/json'];
          return {
            method: method.toUpperCase(),
            path,
            pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
            queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
            bodyKeys: op.requestBody ? Object.keys(json?.schema?.properties ?? {}) : null,
          };
        }),
    )
    .filter((op) => !EXCLUDED.some((re) => re.test(op.path)));
});
afterAll(async () => {
  await t.close();
});

const realIds = [
  ids.lessonA1,
  ids.lessonA2,
  ids.lessonB1,
  ids.classCurrent,
  ids.cpCurrentPub,
  ids.progPub,
  ids.coursePub,
  ids.node.b1,
  ids.node.m,
  ids.fileLogo,
  ids.fileSound,
  ids.learnerA,
  ids.learnerB,
  ids.ctxA,
  'me',
];
const nastyText = fc.constantFrom(
  '',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '%00',
  '%',
  '../../etc/passwd',
  "' OR '1'='1",
  '-1',
  '0',
  '1e999',
  'NaN',
  '9'.repeat(40),
  'null',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '😀',
  'é'.repeat(3000),
  'x'.repeat(20_000),
);
const text = fc.oneof(
  { weight: 3, arbitrary: nastyText },
  { weight: 3, arbitrary: fc.constantFrom(...realIds) },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
);
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(text, fc.constantFrom('answers', 'pageId', 'id', 'type')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** Percent-encodes anything, lone surrogates included (sent as the bytes of their UTF-8 form). */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return Buffer.from(value, 'utf8').toString('hex').replace(/(..)/g, '%$1');
  }
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

// Bodies sent as they are, not JSON-encoded: broken JSON and a lone NUL byte.
const RAW_BODIES = ['{"broken":', 'not json', '\u0000'];

const requestArb = (op: Operation) =>
  fc.record({
    path: fc.tuple(...op.pathParams.map(() => jsonValue), fc.constant(null)),
    query: fc
      .subarray([...op.queryParams, 'unknown', 'filter[nope]', 'include'])
      .chain((names) =>
        fc.tuple(fc.constant(names), fc.tuple(...names.map(() => jsonValue), fc.constant(null))),
      ),
    body: op.bodyKeys
      ? fc.oneof(
          {
            weight: 4,
            arbitrary: fc
              .subarray(op.bodyKeys)
              .chain((keys) =>
                fc.tuple(fc.constant(keys), fc.tuple(...keys.map(() => jsonValue), fc.constant(null))),
              )
              .map(([keys, values]) => Object.fromEntries(keys.map((k, i) => [k, values[i]]))),
          },
          { weight: 1, arbitrary: jsonValue },
          { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
        )
      : fc.constant(undefined),
  });

function toInject(
  op: Operation,
  sample: { path: unknown[]; query: [string[], unknown[]]; body: unknown },
  auth: boolean,
): InjectOptions {
  let url = op.path;
  op.pathParams.forEach((name, i) => {
    url = url.replace(`{${name}}`, encode(asText(sample.path[i])));
  });
  const [names, values] = sample.query;
  const query = names.map((name, i) => `${encode(name)}=${encode(asText(values[i]))}`).join('&');
  if (query) url += `?${query}`;
  const headers: Record<string, string> = {
    host: hosts.alpha,
    ...(auth ? { authorization: `Bearer ${token}` } : {}),
  };
  const opts: InjectOptions = { method: op.method as InjectOptions['method'], url, headers };
  if (sample.body !== undefined) {
    headers['content-type'] = 'application/json';
    opts.payload =
      typeof sample.body === 'string' && RAW_BODIES.includes(sample.body)
        ? sample.body
        : JSON.stringify(sample.body);
  }
  return opts;
}

describe('fuzzing every OpenAPI route', () => {
  it('never answers 5xx, anonymous or signed in', async () => {
    expect(operations.length).toBeGreaterThan(30);
    const perRoute = Math.max(3, Math.floor(MAX_REQUESTS / (operations.length * 2)));
    const started = Date.now();
    const failures: string[] = [];
    let sent = 0;
    for (const [index, op] of operations.entries()) {
      const samples = fc.sample(requestArb(op), { numRuns: perRoute * 2, seed: SEED + index });
      for (const [i, sample] of samples.entries()) {
        if (sent >= MAX_REQUESTS || Date.now() - started > TIME_BUDGET_MS) break;
        const opts = toInject(op, sample, i % 2 === 1);
        const res = await t.app.inject(opts);
        sent++;
        if (res.statusCode >= 500)
          failures.push(
            `${res.statusCode} ${op.method} ${String(opts.url).slice(0, 160)} ${String(opts.payload ?? '').slice(0, 160)}`,
          );
      }
    }
    // Bounded, yet not trivially small: most routes got their share before the time ran out.
    expect(sent).toBeGreaterThan(Math.min(MAX_REQUESTS, operations.length * 2 * 3) / 2);
    expect(failures, `seed ${SEED}`).toEqual([]);
  }, 120_000);
});
