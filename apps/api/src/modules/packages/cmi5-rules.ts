/**
 * What the LMS refuses of an AU (issue 39 item 1; cmi5 spec §9, §10.2.2, §11), before anything is
 * stored: a statement out of the session's order (§9.3: initialized first and once, after the
 * learner preferences were read; completed once per registration, one of passed or failed per
 * session, nothing after passed), a cmi5 defined statement whose result or context breaks §9.5 or
 * §9.6, a verb only the LMS sends, a voiding statement, and in Browse or Review mode any statement
 * that would change the AU's state. Pure, table-tested; the caller answers 403 with the message.
 */
import type { Statement } from '../lrs/statement-schema';

export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const EXT = 'https://w3id.org/xapi/cmi5/context/extensions/';
const ADL = 'http://adlnet.gov/expapi/verbs/';

const V = {
  initialized: `${ADL}initialized`,
  completed: `${ADL}completed`,
  passed: `${ADL}passed`,
  failed: `${ADL}failed`,
  terminated: `${ADL}terminated`,
  voided: `${ADL}voided`,
} as const;
/** Verbs only the LMS sends (§9.3.1, §9.3.6, §9.3.7, §9.3.9). */
const LMS_VERBS = new Set([
  `${ADL}launched`,
  'https://w3id.org/xapi/adl/verbs/abandoned',
  'https://w3id.org/xapi/adl/verbs/waived',
  'https://w3id.org/xapi/adl/verbs/satisfied',
]);
const DEFINED = new Set<string>(Object.values(V).filter((v) => v !== V.voided));

/** What a session said so far (stored with the launch). */
export interface SessionState {
  initialized: boolean;
  prefsRead: boolean;
  completed: boolean;
  passed: boolean;
  failed: boolean;
  terminated: boolean;
}
export const NEW_SESSION: SessionState = {
  initialized: false,
  prefsRead: false,
  completed: false,
  passed: false,
  failed: false,
  terminated: false,
};

export interface RuleContext {
  activityId: string;
  registration: string;
  sessionId: string;
  launchMode: string;
  masteryScore: number | null;
  /** What earlier sessions of the registration recorded. */
  registrationCompleted: boolean;
  registrationPassed: boolean;
}

const UTC = /(Z|[+-]00:?00)$/i;
const isoDuration = (d: unknown) => typeof d === 'string' && d.length > 1;

/**
 * The reason `s` is refused, or null; `state` is the session before it, `next` after it.
 * `hadId`: the statement came with its id (§9.1: the AU sets it).
 */
export function cmi5Refusal(
  s: Statement,
  hadId: boolean,
  ctx: RuleContext,
  state: SessionState,
): { refusal: string } | { next: SessionState } {
  const no = (refusal: string) => ({ refusal });
  const verb = s.verb.id;
  if (state.terminated) return no('The session is terminated (cmi5 §9.3.8).');
  if (!hadId) return no('A statement of an AU carries its id (cmi5 §9.1).');
  if (!s.timestamp) return no('A statement of an AU carries its timestamp (cmi5 §9.7).');
  if (!UTC.test(s.timestamp)) return no('The timestamp is in UTC (cmi5 §9.7).');
  const actor = s.actor as { objectType?: string; account?: unknown };
  if (actor.objectType === 'Group' || !actor.account)
    return no('The actor is the launch actor, an Agent identified by account (cmi5 §9.2).');
  if (verb === V.voided) return no('An AU does not void statements (cmi5 §6.3).');
  if (LMS_VERBS.has(verb)) return no('This verb is sent by the LMS only (cmi5 §9.3).');
  const ctxt = s.context as
    | {
        registration?: string;
        contextActivities?: { category?: { id?: string }[] };
        extensions?: Record<string, unknown>;
      }
    | undefined;
  if (!ctxt) return no('A statement of an AU carries the context template (cmi5 §9.6).');
  if (ctxt.registration?.toLowerCase() !== ctx.registration.toLowerCase())
    return no("The registration is the launch's (cmi5 §9.6.1).");
  if (ctxt.extensions?.[`${EXT}sessionid`] !== ctx.sessionId)
    return no("The session id extension is the launch's (cmi5 §9.6.3.1).");
  const categories = (ctxt.contextActivities?.category ?? []).map((c) => c?.id);
  const cmi5 = categories.includes(CMI5_CATEGORY);
  const moveOnCategory = categories.includes(MOVEON_CATEGORY);
  const isDefined = DEFINED.has(verb) && cmi5;
  const moveOnVerb = verb === V.completed || verb === V.passed || verb === V.failed;
  if (moveOnCategory && !(isDefined && moveOnVerb))
    return no('The moveOn category is for completed, passed and failed only (cmi5 §9.6.2.2).');
  if (!state.initialized && verb !== V.initialized)
    return no('The AU sends initialized first (cmi5 §9.3.2).');
  if (!isDefined) return { next: state };
  if ((s.object as { id?: string }).id !== ctx.activityId)
    return no("A cmi5 defined statement is about the launch's activity (cmi5 §9.4).");
  const result = s.result as
    | {
        success?: boolean;
        completion?: boolean;
        duration?: string;
        score?: { scaled?: number; raw?: number; min?: number; max?: number };
      }
    | undefined;
  if (verb === V.initialized) {
    if (state.initialized) return no('The session is initialized already (cmi5 §9.3.2).');
    if (!state.prefsRead) return no('The AU reads the learner preferences first (cmi5 §11).');
    return { next: { ...state, initialized: true } };
  }
  if (verb === V.terminated) {
    if (!isoDuration(result?.duration)) return no('terminated carries the duration (cmi5 §9.5.4.1).');
    return { next: { ...state, terminated: true } };
  }
  if (ctx.launchMode !== 'Normal')
    return no(`In ${ctx.launchMode} mode the AU records no completed, passed or failed (cmi5 §10.2.2).`);
  if (!moveOnCategory) return no('completed, passed and failed carry the moveOn category (cmi5 §9.6.2.2).');
  if (!isoDuration(result?.duration)) return no('This statement carries the duration (cmi5 §9.5.4.1).');
  const score = result?.score;
  if (score && score.raw !== undefined && (score.min === undefined || score.max === undefined))
    return no('A raw score comes with min and max (cmi5 §9.5.1).');
  if (verb === V.completed) {
    if (result?.completion !== true) return no('completed has result.completion true (cmi5 §9.5.3).');
    if (result.success !== undefined) return no('completed has no result.success (cmi5 §9.5.2).');
    if (score) return no('completed has no score (cmi5 §9.5.1).');
    if (state.completed || ctx.registrationCompleted)
      return no('completed is recorded once in a registration (cmi5 §9.3.3).');
    return { next: { ...state, completed: true } };
  }
  // passed or failed
  const passed = verb === V.passed;
  if (result?.success !== passed)
    return no(`${passed ? 'passed' : 'failed'} has result.success ${passed} (cmi5 §9.5.2).`);
  if (result.completion !== undefined)
    return no('passed and failed have no result.completion (cmi5 §9.5.3).');
  if (ctx.masteryScore !== null) {
    // A judgement by score names the masteryScore it was judged by; one without a score may
    // leave it out (ADL's suite sends such a passed), but never names another.
    const named = ctxt.extensions?.[`${EXT}masteryscore`];
    if (named === undefined ? score !== undefined : named !== ctx.masteryScore)
      return no('The masteryScore extension is the launch data masteryScore (cmi5 §9.6.3.2).');
    const scaled = score?.scaled;
    if (typeof scaled === 'number' && (passed ? scaled < ctx.masteryScore : scaled >= ctx.masteryScore))
      return no(
        passed
          ? 'passed with a score below the masteryScore (cmi5 §9.3.4).'
          : 'failed with a score at or above the masteryScore (cmi5 §9.3.5).',
      );
  }
  if (state.passed || ctx.registrationPassed)
    return no('After passed the registration takes no passed or failed (cmi5 §9.3.0).');
  if (state.failed) return no('One of passed or failed per session (cmi5 §9.3.0).');
  return { next: { ...state, passed: state.passed || passed, failed: state.failed || !passed } };
}

/** RFC 5646 tags, comma separated (cmi5 §11.1). */
const LANG_LIST = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*(,[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)*$/;

/**
 * cmi5 §11: the learner preferences an AU writes, or why they are refused: a JSON object with a
 * languagePreference (RFC 5646 tags, comma separated) and an audioPreference (on or off).
 */
export function learnerPreferencesRefusal(
  contentType: string | undefined,
  body: Buffer | null,
): string | null {
  if (!contentType || !/^application\/json\b/i.test(contentType))
    return 'The learner preferences are a JSON document (cmi5 §11).';
  let doc: unknown;
  try {
    doc = JSON.parse((body ?? Buffer.alloc(0)).toString('utf8'));
  } catch {
    return 'The learner preferences are a JSON document (cmi5 §11).';
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    return 'The learner preferences are a JSON object (cmi5 §11).';
  const d = doc as Record<string, unknown>;
  if (typeof d.languagePreference !== 'string' || !LANG_LIST.test(d.languagePreference))
    return 'languagePreference is a comma-separated list of language tags (cmi5 §11.1).';
  if (d.audioPreference !== 'on' && d.audioPreference !== 'off')
    return 'audioPreference is "on" or "off" (cmi5 §11.2).';
  return null;
}
