import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { PACKAGES_ORIGIN, PK_HOST } from './packages';
import type { PackageWorld } from './packages';

export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';

/**
 * The AU's side of a started cmi5 launch, as an AU does it (cmi5 §8, §10, §11): its launch URL's
 * parameters, its token fetched once, an LRS client with that token, then LMS.LaunchData and the
 * learner preferences read before it sends anything. `entry` is the bridge's `/start` answer.
 */
export async function auSession(w: PackageWorld, entry: string) {
  const url = new URL(entry, PACKAGES_ORIGIN);
  const q = url.searchParams;
  const fetchUrl = new URL(q.get('fetch') as string);
  const fetchToken = () =>
    w.app.inject({ method: 'POST', url: fetchUrl.pathname, headers: { host: PK_HOST } });
  const got = await fetchToken();
  expect(got.statusCode).toBe(200);
  const auth = (got.json() as { 'auth-token': string })['auth-token'];
  const actor = JSON.parse(q.get('actor') as string) as Record<string, unknown>;
  const registration = q.get('registration') as string;
  const activityId = q.get('activityId') as string;
  const lrs = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
    w.app.inject({
      method,
      url: `/api/xapi/${path}`,
      headers: {
        host: PK_HOST,
        authorization: `Basic ${auth}`,
        'x-experience-api-version': '1.0.3',
        'content-type': 'application/json',
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const agent = encodeURIComponent(JSON.stringify(actor));
  const launchData = await lrs(
    'GET',
    `activities/state?stateId=LMS.LaunchData&activityId=${encodeURIComponent(activityId)}&agent=${agent}&registration=${registration}`,
  );
  expect(launchData.statusCode, launchData.body).toBe(200);
  const prefs = await lrs('GET', `agents/profile?profileId=cmi5LearnerPreferences&agent=${agent}`);
  expect(prefs.statusCode).toBe(200);
  const template = (launchData.json() as { contextTemplate: Record<string, unknown> }).contextTemplate;
  /**
   * A statement of this AU in its registration, from LMS.LaunchData's context template: a cmi5
   * defined one (§9.6.2 category) unless `cmi5` is false, with the moveOn category if asked.
   */
  const statement = (
    verb: string,
    extra: Record<string, unknown> = {},
    opts: { cmi5?: boolean; moveOn?: boolean; extensions?: Record<string, unknown> } = {},
  ) => ({
    id: randomUUID(),
    actor,
    verb: { id: `http://adlnet.gov/expapi/verbs/${verb}` },
    object: { id: activityId, objectType: 'Activity' },
    context: {
      ...template,
      registration,
      extensions: { ...(template.extensions as object), ...opts.extensions },
      contextActivities: {
        ...(template.contextActivities as object),
        ...(opts.cmi5 === false
          ? {}
          : { category: [{ id: CMI5_CATEGORY }, ...(opts.moveOn ? [{ id: MOVEON_CATEGORY }] : [])] }),
      },
    },
    timestamp: new Date().toISOString(),
    ...extra,
  });
  return {
    statement,
    url,
    q,
    fetchToken,
    auth,
    actor,
    registration,
    activityId,
    lrs,
    launchData: launchData.json() as { contextTemplate: Record<string, unknown> } & Record<string, unknown>,
  };
}
