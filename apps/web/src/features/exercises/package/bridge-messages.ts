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
export type BridgeMessage = 'ready' | 'committed' | 'terminated' | 'error' | 'refused';
const BRIDGE_MESSAGES: readonly BridgeMessage[] = ['ready', 'committed', 'terminated', 'error', 'refused'];

/** The catalogue key of a `refused` message: a `quota.*` key only, never text from the frame. */
export function refusalKeyOf(data: unknown): string | null {
  const detail = (data as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' && /^quota\.[A-Za-z]{1,40}$/.test(detail) ? detail : null;
}

/** What the player posts to the bridge when the learner closes the dialog: save and finish. */
export const TERMINATE_MESSAGE = { source: PLAYER_SOURCE, type: 'terminate' } as const;

/**
 * The frame's sandbox. The bridge needs its own origin (`allow-same-origin`: its storage of the
 * launch credential, its calls to the packages origin, the package page nested in it) and forms
 * for packages that submit one; never top navigation, popups or modals over the app. Its origin
 * is not the app's (the player refuses to open a package there), so reaching the learner's
 * token or the app's storage stays impossible.
 */
export const PACKAGE_SANDBOX = 'allow-scripts allow-same-origin allow-forms';

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
