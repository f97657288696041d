/**
 * The window messages between the player and a package's bridge page (docs/api.md "Packages",
 * decision 0050). The bridge runs on the packages' own origin, in the dialog's frame; only a
 * message from that very frame's window AND from the origin the launch named counts. A package's
 * own page (nested inside the bridge, same origin) or any other window posting the same data is
 * ignored, so a package can never close its dialog or fake a save.
 */

export const BRIDGE_SOURCE = 'parcours-package';
export const PLAYER_SOURCE = 'parcours-player';

/**
 * `error`: the launch could not start (over, started elsewhere) or finish (docs/api.md "Packages").
 * `refused`: the server refused a save for the learner's write budget (issue 36); `detail` is
 * the refusal's catalogue key (`quota.*`).
 */
export type BridgeMessage = 'ready' | 'committed' | 'terminated' | 'error' | 'refused' | 'course';
const BRIDGE_MESSAGES: readonly BridgeMessage[] = [
  'ready',
  'committed',
  'terminated',
  'error',
  'refused',
  'course',
];

/** The catalogue key of a `refused` message: a `quota.*` key only, never text from the frame. */
export function refusalKeyOf(data: unknown): string | null {
  const detail = (data as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' && /^quota\.[A-Za-z]{1,40}$/.test(detail) ? detail : null;
}

/** What the player posts to the bridge when the learner closes the dialog: save and finish. */
export const TERMINATE_MESSAGE = { source: PLAYER_SOURCE, type: 'terminate' } as const;

/** A learner's move in a course (issue 39): to the next SCO, the previous one, or a chosen one. */
export type CourseRequest = 'continue' | 'previous' | 'choice';

/** What the player posts to the bridge for a move in a course. */
export const navigateMessage = (request: CourseRequest, target?: string) =>
  ({ source: PLAYER_SOURCE, type: 'navigate', request, ...(target ? { target } : {}) }) as const;

/**
 * The frame's sandbox. The bridge needs its own origin (`allow-same-origin`: its storage of the
 * launch credential, its calls to the packages origin, the package page nested in it) and forms
 * for packages that submit one; never top navigation or popups. Modals (`allow-modals`, decision
 * 0063): a package's own `alert` / `confirm` ("resume where you left off?") must be answered by
 * the learner, not by the sandbox; the browser names the packages origin in the prompt, and a
 * prompt cannot reach the app's data. Its origin is not the app's (the player refuses to open a
 * package there), so reaching the learner's token or the app's storage stays impossible.
 */
export const PACKAGE_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-modals';

/** A SCO or a cluster of a course's table of contents. */
export interface CourseNode {
  id: string;
  title: string;
  sco: boolean;
  hidden: boolean;
  children: CourseNode[];
}

export interface CourseItemState {
  completion: 'completed' | 'incomplete' | 'not attempted' | 'unknown';
  success: 'passed' | 'failed' | 'unknown';
  /** The learner may go there now (the package's sequencing says so). */
  choice: boolean;
}

/** A course's table of contents and where the learner is, as the bridge tells it. */
export interface CourseView {
  toc: CourseNode;
  items: Record<string, CourseItemState>;
  current: string | null;
  canContinue: boolean;
  canPrevious: boolean;
  ended: boolean;
}

const MAX_NODES = 2000;
const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.length <= max ? v : null;

/** The course a `course` message describes, or null when it is not one (nothing else is trusted). */
export function courseViewOf(data: unknown): CourseView | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  let count = 0;
  const nodeOf = (v: unknown, depth: number): CourseNode | null => {
    if (typeof v !== 'object' || v === null || depth > 20 || ++count > MAX_NODES) return null;
    const n = v as Record<string, unknown>;
    const id = text(n.id, 200);
    const title = text(n.title, 500);
    if (id === null || title === null) return null;
    const kids = Array.isArray(n.children) ? n.children.map((c) => nodeOf(c, depth + 1)) : [];
    if (kids.some((k) => k === null)) return null;
    return { id, title, sco: n.sco === true, hidden: n.hidden === true, children: kids as CourseNode[] };
  };
  const toc = nodeOf(d.toc, 0);
  if (!toc || typeof d.items !== 'object' || d.items === null) return null;
  const items: Record<string, CourseItemState> = {};
  const COMPLETION = ['completed', 'incomplete', 'not attempted', 'unknown'];
  const SUCCESS = ['passed', 'failed', 'unknown'];
  for (const [id, raw] of Object.entries(d.items as Record<string, unknown>).slice(0, MAX_NODES)) {
    const it = (raw ?? {}) as Record<string, unknown>;
    items[id] = {
      completion: (COMPLETION.includes(it.completion as string)
        ? it.completion
        : 'unknown') as CourseItemState['completion'],
      success: (SUCCESS.includes(it.success as string)
        ? it.success
        : 'unknown') as CourseItemState['success'],
      choice: it.choice === true,
    };
  }
  return {
    toc,
    items,
    current: text(d.current, 200),
    canContinue: d.canContinue === true,
    canPrevious: d.canPrevious === true,
    ended: d.ended === true,
  };
}

export interface BridgeEventLike {
  origin: string;
  source: unknown;
  data: unknown;
}

/** The bridge message an event carries, or null when it is not one from this launch's frame. */
export function bridgeMessageOf(
  event: BridgeEventLike,
  expected: { origin: string; frame: Window | null | undefined },
): BridgeMessage | null {
  if (!expected.frame || event.source !== expected.frame) return null;
  if (event.origin !== expected.origin || event.origin === 'null') return null;
  const data = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const { source, type } = data as { source?: unknown; type?: unknown };
  if (source !== BRIDGE_SOURCE) return null;
  return BRIDGE_MESSAGES.includes(type as BridgeMessage) ? (type as BridgeMessage) : null;
}
