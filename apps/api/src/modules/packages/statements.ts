/**
 * The learning records a package's runtime leads the server to write (issue 31):
 * - SCORM commits as xAPI statements by ADL's xAPI SCORM Profile (initialized or resumed,
 *   completed, passed, failed, then terminated or suspended with the SCO's result), in the
 *   profile's context: the attempt and the course in `grouping`, the profile in `category`;
 * - the LMS's own cmi5 statements (launched, satisfied, abandoned) with the cmi5 context
 *   template (cmi5 spec §9.6). Pure builders; the caller stores them.
 */
import { randomBytes } from 'node:crypto';
import type { Agent, Statement } from '../lrs/statement-schema';
import type { Cmi5Settings } from '../../content/packages/manifest';
import type { ScormState } from './scorm';
import { INTERACTION_TYPES as XAPI_INTERACTION_TYPES } from '../lrs/statement-schema';

const ADL = 'http://adlnet.gov/expapi/verbs/';
export const VERBS = {
  initialized: { id: `${ADL}initialized`, display: { 'en-US': 'initialized' } },
  resumed: { id: `${ADL}resumed`, display: { 'en-US': 'resumed' } },
  completed: { id: `${ADL}completed`, display: { 'en-US': 'completed' } },
  passed: { id: `${ADL}passed`, display: { 'en-US': 'passed' } },
  failed: { id: `${ADL}failed`, display: { 'en-US': 'failed' } },
  suspended: { id: `${ADL}suspended`, display: { 'en-US': 'suspended' } },
  terminated: { id: `${ADL}terminated`, display: { 'en-US': 'terminated' } },
  responded: { id: `${ADL}responded`, display: { 'en-US': 'responded' } },
  launched: { id: `${ADL}launched`, display: { 'en-US': 'launched' } },
  satisfied: { id: 'https://w3id.org/xapi/adl/verbs/satisfied', display: { 'en-US': 'satisfied' } },
  abandoned: { id: 'https://w3id.org/xapi/adl/verbs/abandoned', display: { 'en-US': 'abandoned' } },
  waived: { id: 'https://w3id.org/xapi/adl/verbs/waived', display: { 'en-US': 'waived' } },
} as const;
export type VerbName = keyof typeof VERBS;

const SCORM_PROFILE = {
  id: 'https://w3id.org/xapi/scorm',
  definition: { type: 'http://adlnet.gov/expapi/activities/profile' },
};
export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const CMI5_EXT = 'https://w3id.org/xapi/cmi5/context/extensions/';

/** An ISO 8601 duration of `seconds` (centiseconds kept). */
export const isoDuration = (seconds: number) => `PT${Math.max(0, Math.round(seconds * 100) / 100)}S`;

/** The SCORM score as xAPI accepts it: scaled within −1..1, raw only within [min, max]. */
export function xapiScore(s: ScormState['score']): NonNullable<Statement['result']>['score'] | undefined {
  if (!s) return undefined;
  const out: { scaled?: number; raw?: number; min?: number; max?: number } = {};
  if (s.scaled !== undefined && s.scaled >= -1 && s.scaled <= 1) out.scaled = s.scaled;
  const rangeOk = s.min === undefined || s.max === undefined || s.min < s.max;
  if (rangeOk) {
    if (s.min !== undefined) out.min = s.min;
    if (s.max !== undefined) out.max = s.max;
    if (
      s.raw !== undefined &&
      (s.min === undefined || s.raw >= s.min) &&
      (s.max === undefined || s.raw <= s.max)
    )
      out.raw = s.raw;
  }
  return out.scaled !== undefined || out.raw !== undefined ? out : undefined;
}

export interface ScormCommitFacts {
  actor: Agent;
  blockId: string;
  lessonId: string;
  pageId: string;
  /** The SCO's item identifier in the manifest. */
  item: string;
  title: string;
  registration: string;
  /** The SCO's state before this commit (the last commit, of this launch or an earlier one). */
  before: ScormState | null;
  after: ScormState;
  /** The launch's first commit: initialized (or resumed when it began from saved data). */
  first: boolean;
  resumed: boolean;
  terminate: boolean;
  at: Date;
}

/** Activity IRIs of the profile: the course (the block), the SCO, its attempt (the page). */
export function scormActivities(blockId: string, item: string, pageId: string) {
  const course = `urn:parcours:block:${blockId}`;
  const sco = `${course}/sco/${encodeURIComponent(item)}`;
  return { course, sco, attempt: `${sco}/attempt/${pageId}` };
}

const INTERACTION_TYPES: ReadonlySet<string> = new Set(XAPI_INTERACTION_TYPES);

/**
 * The statements a commit means, in order; each with the verb it is named by and a key unique
 * within the commit (the verb, or `responded:<n>` for the n-th interaction).
 */
export function scormStatements(
  f: ScormCommitFacts,
): { verb: VerbName; key: string; statement: Statement }[] {
  const ids = scormActivities(f.blockId, f.item, f.pageId);
  const context = {
    registration: f.registration,
    contextActivities: {
      parent: [{ id: `urn:parcours:lesson:${f.lessonId}` }],
      grouping: [
        { id: ids.attempt, definition: { type: 'http://adlnet.gov/expapi/activities/attempt' } },
        { id: ids.course, definition: { type: 'http://adlnet.gov/expapi/activities/course' } },
      ],
      category: [SCORM_PROFILE],
    },
  };
  const object = {
    objectType: 'Activity' as const,
    id: ids.sco,
    definition: {
      name: { und: f.title },
      type: 'http://adlnet.gov/expapi/activities/lesson',
    },
  };
  const timestamp = f.at.toISOString();
  const make = (verb: VerbName, result?: Statement['result']) => ({
    verb,
    key: verb as string,
    statement: {
      actor: f.actor,
      verb: VERBS[verb],
      object,
      context,
      timestamp,
      ...(result ? { result } : {}),
    },
  });
  const out: { verb: VerbName; key: string; statement: Statement }[] = [];
  if (f.first) out.push(make(f.resumed ? 'resumed' : 'initialized'));
  const a = f.after;
  const b = f.before;
  // The profile's interactions: a response given or changed since the last commit.
  a.interactions.forEach((it, n) => {
    const was = b?.interactions[n];
    if (!it.response) return;
    if (was && was.id === it.id && was.response === it.response && was.result === it.result) return;
    const success =
      it.result === 'correct' ? true : it.result === 'wrong' || it.result === 'incorrect' ? false : undefined;
    out.push({
      verb: 'responded',
      key: `responded:${n}`,
      statement: {
        actor: f.actor,
        verb: VERBS.responded,
        object: {
          objectType: 'Activity',
          id: `${ids.sco}/interactions/${encodeURIComponent(it.id)}`,
          definition: {
            type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
            interactionType: (INTERACTION_TYPES.has(it.type) ? it.type : 'other') as never,
            ...(it.patterns.length ? { correctResponsesPattern: it.patterns } : {}),
            ...(it.description ? { description: { und: it.description } } : {}),
          },
        },
        context: {
          ...context,
          contextActivities: { ...context.contextActivities, parent: [{ id: ids.sco }] },
        },
        result: { response: it.response, ...(success === undefined ? {} : { success }) },
        timestamp,
      },
    });
  });
  const score = xapiScore(a.score);
  if (a.completion === 'completed' && b?.completion !== 'completed')
    out.push(make('completed', { completion: true }));
  if (a.success !== 'unknown' && a.success !== b?.success)
    out.push(make(a.success, { success: a.success === 'passed', ...(score ? { score } : {}) }));
  if (f.terminate) {
    const result: NonNullable<Statement['result']> = {};
    if (a.success !== 'unknown') result.success = a.success === 'passed';
    if (a.completion === 'completed' || a.completion === 'incomplete')
      result.completion = a.completion === 'completed';
    if (score) result.score = score;
    if (a.sessionSeconds !== null) result.duration = isoDuration(a.sessionSeconds);
    out.push(
      make(
        a.exit === 'suspend' ? 'suspended' : 'terminated',
        Object.keys(result).length ? result : undefined,
      ),
    );
  }
  return out;
}

export interface Cmi5Session {
  actor: Agent;
  registration: string;
  sessionId: string;
  /** The AU's activity id for this LMS (cmi5 §8.1.5: never the publisher's id). */
  activityId: string;
  settings: Cmi5Settings;
  /** Normal, Browse or Review (cmi5 §10.2.2). */
  launchMode: string;
}

/** cmi5 §10.2.1: the context template every statement of the session starts from. */
export function contextTemplate(s: Cmi5Session) {
  return {
    contextActivities: { grouping: [{ id: s.settings.auId }] },
    extensions: { [`${CMI5_EXT}sessionid`]: s.sessionId },
  };
}

/** The `LMS.LaunchData` State document (cmi5 §10). */
export function launchData(s: Cmi5Session) {
  return {
    contextTemplate: contextTemplate(s),
    launchMode: s.launchMode,
    moveOn: s.settings.moveOn,
    ...(s.settings.masteryScore !== null ? { masteryScore: s.settings.masteryScore } : {}),
    ...(s.settings.launchParameters !== null ? { launchParameters: s.settings.launchParameters } : {}),
    ...(s.settings.entitlementKey !== null
      ? { entitlementKey: { courseStructure: s.settings.entitlementKey } }
      : {}),
  };
}

let lastMs = 0;
let seq = 0;
/**
 * A time-ordered id (UUID version 7): the LRS orders statements stored at the same instant by
 * id, so the LMS's statements of one moment keep the order they were made in (a block satisfied
 * before its course, both before `launched` at a new registration: cmi5 §9.3.9, §9.6.1).
 */
export function orderedStatementId(now = Date.now()): string {
  if (now <= lastMs) seq += 1;
  else {
    lastMs = now;
    seq = 0;
  }
  const t = lastMs.toString(16).padStart(12, '0');
  const r = randomBytes(8).toString('hex');
  const variant = (8 | (parseInt(r[0] as string, 16) & 3)).toString(16);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${(seq & 0xfff).toString(16).padStart(3, '0')}-${variant}${r.slice(1, 4)}-${r.slice(4, 16)}`;
}

/** A cmi5 defined statement the LMS makes, with the template (§9.6) and the cmi5 category. */
function lmsStatement(
  s: Cmi5Session,
  verb: VerbName,
  at: Date,
  extra: {
    extensions?: Record<string, unknown>;
    result?: Statement['result'];
    object?: Statement['object'];
  } = {},
): Statement {
  const template = contextTemplate(s);
  return {
    id: orderedStatementId(),
    actor: s.actor,
    verb: VERBS[verb],
    object: extra.object ?? {
      objectType: 'Activity',
      id: s.activityId,
      ...(s.settings.activityType ? { definition: { type: s.settings.activityType } } : {}),
    },
    context: {
      registration: s.registration,
      contextActivities: { ...template.contextActivities, category: [{ id: CMI5_CATEGORY }] },
      extensions: { ...template.extensions, ...extra.extensions },
    },
    ...(extra.result ? { result: extra.result } : {}),
    timestamp: at.toISOString(),
  };
}

/** §9.3.1 launched, with launchMode, launchURL, moveOn, masteryScore and launchParameters (§9.6.3). */
export function launchedStatement(s: Cmi5Session, launchUrl: string, at: Date): Statement {
  return lmsStatement(s, 'launched', at, {
    extensions: {
      [`${CMI5_EXT}launchmode`]: s.launchMode,
      [`${CMI5_EXT}launchurl`]: launchUrl,
      [`${CMI5_EXT}moveon`]: s.settings.moveOn,
      ...(s.settings.masteryScore !== null ? { [`${CMI5_EXT}masteryscore`]: s.settings.masteryScore } : {}),
      ...(s.settings.launchParameters !== null
        ? { [`${CMI5_EXT}launchparameters`]: s.settings.launchParameters }
        : {}),
    },
  });
}

/** §9.3.6 abandoned: the session was left without terminated; duration since its launch. */
export function abandonedStatement(s: Cmi5Session, seconds: number, at: Date): Statement {
  return lmsStatement(s, 'abandoned', at, { result: { duration: isoDuration(seconds) } });
}

/** §9.3.7 waived: the AU's moveOn set aside by a teacher or an operator, with the reason. */
export function waivedStatement(s: Cmi5Session, reason: string, at: Date): Statement {
  const st = lmsStatement(s, 'waived', at, {
    result: {
      success: true,
      completion: true,
      extensions: { 'https://w3id.org/xapi/cmi5/result/extensions/reason': reason },
    },
  });
  const ctx = st.context as NonNullable<Statement['context']>;
  return {
    ...st,
    context: {
      ...ctx,
      contextActivities: {
        ...ctx.contextActivities,
        category: [{ id: CMI5_CATEGORY }, { id: MOVEON_CATEGORY }],
      },
    },
  };
}

/**
 * §9.3.9 satisfied, about a block or the course, the object generated by the LMS, never the
 * publisher's id (§9.4), with the publisher's id in grouping (§9.6.2.3).
 */
export function satisfiedStatement(
  s: Cmi5Session,
  objectId: string,
  type: 'block' | 'course',
  publisherId: string,
  at: Date,
): Statement {
  const st = lmsStatement(s, 'satisfied', at, {
    object: {
      objectType: 'Activity',
      id: objectId,
      definition: { type: `https://w3id.org/xapi/cmi5/activitytype/${type}` },
    },
  });
  const ctx = st.context as NonNullable<Statement['context']>;
  return {
    ...st,
    context: {
      ...ctx,
      contextActivities: {
        grouping: [{ id: publisherId }],
        category: [{ id: CMI5_CATEGORY }],
      },
    },
  };
}
