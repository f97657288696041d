/**
 * One opening of a package in its dialog: the launch call, the bridge's messages, and the save
 * on closing (docs/api.md "Packages", decision 0050). Closing posts `terminate` to the bridge
 * (which calls the package's LMSFinish / Terminate, or sends cmi5's `terminated`) and waits for
 * its `terminated`, at most TERMINATE_WAIT_MS, so a package that never answers cannot hold the
 * learner in the dialog.
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { isNetworkError, quotaKeyOf } from '../../../lib/api-errors';
import {
  bridgeMessageOf,
  courseViewOf,
  navigateMessage,
  refusalKeyOf,
  TERMINATE_MESSAGE,
  type CourseRequest,
  type CourseView,
} from './bridge-messages';
import { launchPackage, type PackageLaunch, type PackageLaunchRequest } from './api/launch-package';

/** How long closing waits for the bridge's `terminated` before closing anyway. */
export const TERMINATE_WAIT_MS = 5000;

export type PackagePhase =
  | { name: 'closed' }
  | { name: 'launching' }
  /** No connection (known offline, or the launch call got no answer). */
  | { name: 'offline' }
  /** The server refused the launch, or its answer was unsafe to open. */
  | { name: 'failed' }
  /** `ownWindow`: a cmi5 AU playing in a window of its own (launchMethod OwnWindow), not in the frame. */
  | { name: 'playing'; launch: PackageLaunch; ready: boolean; ownWindow?: boolean }
  | { name: 'closing'; launch: PackageLaunch };

export interface PackageSession {
  phase: PackagePhase;
  /** The bridge's saves (`committed`) in this opening: shown on the frame for journeys and support. */
  commits: number;
  /** The catalogue key of the server's last refusal of a save (`quota.*`), shown over the frame. */
  refusal: string | null;
  /** A package of several SCOs (issue 39): its table of contents and the moves open. */
  course: CourseView | null;
  /** A move in the course, asked of the bridge (which checks it against the package's sequencing). */
  navigate: (request: CourseRequest, target?: string) => void;
  open: (unit?: PackageUnitChoice) => void;
  /** The learner closes the dialog: save first when the bridge is there. */
  close: () => void;
}

/** A cmi5 course's AU chosen by the learner (issue 39): its place, its window, its launch mode. */
export interface PackageUnitChoice {
  au: number;
  ownWindow?: boolean;
  launchMode?: 'Normal' | 'Browse' | 'Review';
}

export function usePackageSession({
  request,
  frame,
  onClosed,
  onTerminated,
}: {
  /** Null when the page is not being played (preview, correction): the package cannot open. */
  request: PackageLaunchRequest | null;
  frame: RefObject<HTMLIFrameElement | null>;
  /** After the dialog closed (saved or not): the player reads the page and lesson again. */
  onClosed?: () => void;
  /** The package finished by itself while still open (its own LMSFinish): its score may be in. */
  onTerminated?: () => void;
}): PackageSession {
  const [phase, setPhase] = useState<PackagePhase>({ name: 'closed' });
  const [commits, setCommits] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [course, setCourse] = useState<CourseView | null>(null);
  const attempt = useRef(0);
  const terminated = useRef(false);
  const callbacks = useRef({ onClosed, onTerminated });
  useLayoutEffect(() => {
    callbacks.current = { onClosed, onTerminated };
  });

  const finish = () => {
    attempt.current += 1;
    setPhase({ name: 'closed' });
    callbacks.current.onClosed?.();
  };

  const open = (unit?: PackageUnitChoice) => {
    if (!request) return;
    const mine = ++attempt.current;
    terminated.current = false;
    setCommits(0);
    setRefusal(null);
    setCourse(null);
    if (navigator.onLine === false) {
      setPhase({ name: 'offline' });
      return;
    }
    setPhase({ name: 'launching' });
    // A window of its own opens in the learner's click (so no popup blocker stops it), then goes
    // to the launch; it keeps no handle on the app (opener cleared).
    const own = unit?.ownWindow ? window.open('about:blank', '_blank') : null;
    if (own) own.opener = null;
    const chosen = unit
      ? { ...request, au: unit.au, ...(unit.launchMode ? { launchMode: unit.launchMode } : {}) }
      : request;
    launchPackage(chosen).then(
      (launch) => {
        if (attempt.current !== mine) return;
        if (own) own.location.href = launch.url;
        setPhase({ name: 'playing', launch, ready: false, ownWindow: !!own });
      },
      (error: unknown) => {
        if (attempt.current !== mine) return;
        if (!isNetworkError(error)) console.warn('package launch refused', error);
        // Past the learner's budget (issue 36): the dialog says why rather than "could not open".
        setRefusal(quotaKeyOf(error));
        setPhase(isNetworkError(error) ? { name: 'offline' } : { name: 'failed' });
      },
    );
  };

  const close = () => {
    if (phase.name === 'closing') return;
    if (phase.name !== 'playing' || !phase.ready || terminated.current || phase.ownWindow) {
      // Nothing started in the frame yet, or the package finished by itself: nothing to save.
      // A unit in its own window sends its own terminated; the player reads the page again.
      const played = phase.name === 'playing';
      attempt.current += 1;
      setPhase({ name: 'closed' });
      if (played) callbacks.current.onClosed?.();
      return;
    }
    setPhase({ name: 'closing', launch: phase.launch });
    frame.current?.contentWindow?.postMessage(TERMINATE_MESSAGE, phase.launch.origin);
  };

  const launch = phase.name === 'playing' || phase.name === 'closing' ? phase.launch : null;
  const closing = phase.name === 'closing';

  // The bridge's messages, from this frame and this origin only (listening anew per launch and
  // when closing starts; `finish` reads refs only).
  useEffect(() => {
    if (!launch) return undefined;
    const listener = (event: MessageEvent) => {
      const message = bridgeMessageOf(event, { origin: launch.origin, frame: frame.current?.contentWindow });
      if (message === 'ready') setPhase((p) => (p.name === 'playing' ? { ...p, ready: true } : p));
      else if (message === 'committed') {
        setCommits((n) => n + 1);
        setRefusal(null);
      } else if (message === 'refused') setRefusal((r) => refusalKeyOf(event.data) ?? r);
      else if (message === 'course') {
        const view = courseViewOf(event.data);
        if (view) setCourse(view);
      } else if (message === 'terminated') {
        terminated.current = true;
        if (closing) finish();
        else callbacks.current.onTerminated?.();
      } else if (message === 'error') {
        // The launch could not start: say so. It could not finish: nothing more will come.
        if (closing) finish();
        else setPhase((p) => (p.name === 'playing' && !p.ready ? { name: 'failed' } : p));
      }
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [launch, closing, frame]);

  // A bridge that never answers `terminate` does not keep the dialog open.
  useEffect(() => {
    if (!closing) return undefined;
    const timer = window.setTimeout(finish, TERMINATE_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [closing]);

  const navigate = (request: CourseRequest, target?: string) => {
    if (phase.name !== 'playing') return;
    frame.current?.contentWindow?.postMessage(navigateMessage(request, target), phase.launch.origin);
  };

  return { phase, commits, refusal, course, navigate, open, close };
}
