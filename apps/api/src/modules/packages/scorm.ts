/**
 * SCORM 1.2 and 2004 data model rules the server applies to what a SCO commits (issue 31):
 * reading the statuses and the score, the fraction that grades the page, session times, and the
 * `cmi` data a later launch resumes with. Pure functions, table-tested.
 */
import type { ScoSettings } from '../../content/packages/scorm-tree';

export type ScormKind = 'scorm12' | 'scorm2004';
type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
/** A number the SCO wrote as a CMIDecimal string ('' or garbage: absent). */
const num = (v: unknown): number | undefined => {
  const s = str(v).trim();
  if (s === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
};

export interface ScormScore {
  scaled?: number;
  raw?: number;
  min?: number;
  max?: number;
}

/** One of the SCO's interactions (a question and the learner's response). */
export interface ScormInteraction {
  id: string;
  type: string;
  response: string;
  /** correct, wrong / incorrect, unanticipated, neutral, or a number. */
  result: string;
  description: string;
  patterns: string[];
}

/** The SCO's state in the terms of SCORM 2004 (a 1.2 lesson_status maps onto both statuses). */
export interface ScormState {
  completion: 'completed' | 'incomplete' | 'not attempted' | 'unknown';
  success: 'passed' | 'failed' | 'unknown';
  score: ScormScore | null;
  progress: number | null;
  location: string;
  suspendData: string;
  exit: string;
  /** Seconds of cmi.(core.)session_time, null when the SCO gave none or an unreadable one. */
  sessionSeconds: number | null;
  /** In index order; entries without an id left out. */
  interactions: ScormInteraction[];
}

/** cmi.interactions as scorm-again renders it: `{ "0": {...}, "1": {...} }` (or an array). */
function interactionsOf(v: unknown): ScormInteraction[] {
  const entries = Array.isArray(v)
    ? v
    : Object.entries(obj(v))
        .filter(([k]) => /^\d+$/.test(k))
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([, x]) => x);
  return entries
    .map((e) => obj(e))
    .filter((e) => str(e.id) !== '')
    .map((e) => ({
      id: str(e.id),
      type: str(e.type),
      response: str(e.learner_response ?? e.student_response),
      result: str(e.result),
      description: str(e.description),
      patterns: (Array.isArray(e.correct_responses)
        ? e.correct_responses
        : Object.values(obj(e.correct_responses))
      )
        .map((r) => str(obj(r).pattern))
        .filter((p) => p !== ''),
    }));
}

function scoreOf(s: Obj): ScormScore | null {
  const out: ScormScore = {};
  for (const k of ['scaled', 'raw', 'min', 'max'] as const) {
    const v = num(s[k]);
    if (v !== undefined) out[k] = v;
  }
  return out.scaled !== undefined || out.raw !== undefined ? out : null;
}

/** What a commit's `cmi` object says (scorm-again's JSON rendering: `{ core: {...}, ... }` for 1.2). */
export function scormState(kind: ScormKind, cmi: unknown): ScormState {
  const c = obj(cmi);
  if (kind === 'scorm12') {
    const core = obj(c.core);
    const status = str(core.lesson_status);
    return {
      completion:
        status === 'completed' || status === 'passed' || status === 'failed'
          ? 'completed'
          : status === 'incomplete' || status === 'browsed'
            ? 'incomplete'
            : status === 'not attempted'
              ? 'not attempted'
              : 'unknown',
      success: status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'unknown',
      score: scoreOf(obj(core.score)),
      progress: null,
      location: str(core.lesson_location),
      suspendData: str(c.suspend_data),
      exit: str(core.exit),
      sessionSeconds: parseScormTime(str(core.session_time)),
      interactions: interactionsOf(c.interactions),
    };
  }
  const completion = str(c.completion_status);
  const success = str(c.success_status);
  return {
    completion:
      completion === 'completed' || completion === 'incomplete' || completion === 'not attempted'
        ? completion
        : 'unknown',
    success: success === 'passed' || success === 'failed' ? success : 'unknown',
    score: scoreOf(obj(c.score)),
    progress: num(c.progress_measure) ?? null,
    location: str(c.location),
    suspendData: str(c.suspend_data),
    exit: str(c.exit),
    sessionSeconds: parseScormTime(str(c.session_time)),
    interactions: interactionsOf(c.interactions),
  };
}

/**
 * SCORM 1.2 RTE 3.4.4 (cmi.core.lesson_status, "Additional Behavior Requirements"): a SCO need
 * not set a status. On LMSFinish, a status the SCO never set ("not attempted", or none) becomes
 * "completed"; then, with a mastery score and a raw score, "passed" or "failed" by comparing
 * them. Learners here always take a SCO for credit in normal mode, so no other rule applies.
 * A status the SCO set is kept. SCORM 2004 leaves statuses to the SCO and sequencing: unchanged.
 */
export function settleOnFinish(
  kind: ScormKind,
  cmi: Record<string, unknown>,
  masteryScore: number | null,
): Record<string, unknown> {
  if (kind !== 'scorm12') return cmi;
  const core = obj(cmi.core);
  const status = str(core.lesson_status);
  if (status !== '' && status !== 'not attempted') return cmi;
  const raw = num(obj(core.score).raw);
  const settled =
    masteryScore !== null && raw !== undefined ? (raw >= masteryScore ? 'passed' : 'failed') : 'completed';
  return { ...cmi, core: { ...core, lesson_status: settled } };
}

/** The SCO says it is done: completed, or judged passed or failed. */
export const isFinal = (s: ScormState) => s.completion === 'completed' || s.success !== 'unknown';

/**
 * The fraction of the page the SCO earned, by the tincan score's rule (a fraction 0..1 that the
 * one-grade rule records): `score.scaled`; else raw within [min, max] (1.2: max 100 and min 0
 * when not given, the scale SCORM 1.2 assumes); else from the status alone — passed or
 * completed 1, failed 0. Null while the SCO is not done.
 */
export function scormFraction(kind: ScormKind, s: ScormState): number | null {
  if (!isFinal(s)) return null;
  const clamp = (f: number) => (Number.isFinite(f) ? Math.min(1, Math.max(0, f)) : null);
  if (s.score?.scaled !== undefined) return clamp(s.score.scaled);
  if (s.score?.raw !== undefined) {
    const min = s.score.min ?? 0;
    const max = s.score.max ?? (kind === 'scorm12' ? 100 : undefined);
    if (max !== undefined && max > min) return clamp((s.score.raw - min) / (max - min));
  }
  if (s.success === 'failed') return 0;
  return 1;
}

/**
 * Seconds of a SCORM time span: 1.2 CMITimespan `HHHH:MM:SS.SS`, 2004 ISO 8601 duration
 * (`PT1H2M3.5S`, `P1DT2H`); null for anything else. Years and months count 365 and 30 days.
 */
export function parseScormTime(value: string): number | null {
  const v = value.trim();
  const hms = /^(\d{2,4}):([0-5]\d):([0-5]\d)(\.\d{1,2})?$/.exec(v);
  if (hms) return Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(`${hms[3]}${hms[4] ?? ''}`);
  const iso =
    /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      v,
    );
  if (!iso || v === 'P' || v.endsWith('T')) return null;
  const [, y, mo, d, h, mi, s] = iso.map((x) => (x === undefined ? 0 : Number(x)));
  return (((y ?? 0) * 365 + (mo ?? 0) * 30 + (d ?? 0)) * 24 + (h ?? 0)) * 3600 + (mi ?? 0) * 60 + (s ?? 0);
}

/** A time span in the kind's format: `HHHH:MM:SS.SS` (1.2) or `PT#H#M#S` (2004). */
export function formatScormTime(kind: ScormKind, seconds: number): string {
  const total = Math.max(0, Math.round(seconds * 100) / 100);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = Math.round((total - h * 3600 - m * 60) * 100) / 100;
  if (kind === 'scorm2004') return `PT${h}H${m}M${s}S`;
  const ss = s.toFixed(2).padStart(5, '0');
  return `${String(h).padStart(4, '0')}:${String(m).padStart(2, '0')}:${ss}`;
}

/** What only the LMS sets, or what belongs to one session: never given back as the SCO's data. */
const LMS_OWNED: Record<ScormKind, { root: string[]; core?: string[] }> = {
  scorm12: {
    root: ['launch_data', 'student_data', 'comments_from_lms', 'interactions'],
    core: [
      'student_id',
      'student_name',
      'credit',
      'entry',
      'lesson_mode',
      'total_time',
      'session_time',
      'exit',
    ],
  },
  scorm2004: {
    root: [
      'learner_id',
      'learner_name',
      'credit',
      'entry',
      'mode',
      'total_time',
      'session_time',
      'exit',
      'launch_data',
      'scaled_passing_score',
      'completion_threshold',
      'max_time_allowed',
      'time_limit_action',
      'comments_from_lms',
    ],
  },
};

/** Drops what a SCO may not set (keywords `_children`, `_count`, `_version`) and empty values. */
function prune(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(prune);
  if (!v || typeof v !== 'object') return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v as Obj)) {
    if (k.startsWith('_')) continue;
    const p = prune(x);
    if (p === '' || p === null || p === undefined) continue;
    if (p && typeof p === 'object' && !Array.isArray(p) && Object.keys(p).length === 0) continue;
    out[k] = p;
  }
  return out;
}

/** What a SCO's runtime starts with: the learner, the time already spent, the SCO's settings. */
export interface LaunchFacts extends ScoSettings {
  learnerId: string;
  learnerName: string;
  totalSeconds: number;
}

/**
 * The `cmi` a launch starts with (scorm-again's `loadFromJSON`, before LMSInitialize/Initialize):
 * the learner and what the LMS sets, and the SCO's own data of its last commit when there is
 * one — location, suspend_data, statuses, score, objectives — with `entry` "resume". The page's
 * attempt is the SCORM attempt: a retry of the page is a new page, which starts ab-initio.
 */
export function initialCmi(kind: ScormKind, stored: unknown, f: LaunchFacts): Obj {
  const saved = obj(prune(stored));
  const owned = LMS_OWNED[kind];
  for (const k of owned.root) delete saved[k];
  const resume = Object.keys(saved).length > 0;
  if (kind === 'scorm12') {
    const core = obj(saved.core);
    for (const k of owned.core ?? []) delete core[k];
    const studentData: Obj = {};
    if (f.masteryScore !== null) studentData.mastery_score = String(f.masteryScore);
    if (f.maxTimeAllowed) studentData.max_time_allowed = f.maxTimeAllowed;
    if (f.timeLimitAction) studentData.time_limit_action = f.timeLimitAction;
    return {
      ...saved,
      core: {
        ...core,
        student_id: f.learnerId,
        student_name: f.learnerName,
        credit: 'credit',
        lesson_mode: 'normal',
        entry: resume ? 'resume' : 'ab-initio',
        total_time: formatScormTime(kind, f.totalSeconds),
      },
      ...(f.launchData ? { launch_data: f.launchData } : {}),
      ...(Object.keys(studentData).length ? { student_data: studentData } : {}),
    };
  }
  return {
    ...saved,
    learner_id: f.learnerId,
    learner_name: f.learnerName,
    credit: 'credit',
    mode: 'normal',
    entry: resume ? 'resume' : 'ab-initio',
    total_time: formatScormTime(kind, f.totalSeconds),
    ...(f.launchData ? { launch_data: f.launchData } : {}),
    ...(f.scaledPassingScore !== null ? { scaled_passing_score: String(f.scaledPassingScore) } : {}),
    ...(f.completionThreshold !== null ? { completion_threshold: String(f.completionThreshold) } : {}),
    ...(f.maxTimeAllowed ? { max_time_allowed: f.maxTimeAllowed } : {}),
    ...(f.timeLimitAction ? { time_limit_action: f.timeLimitAction } : {}),
  };
}
