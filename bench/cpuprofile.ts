/**
 * Reading a V8 CPU profile (`.cpuprofile`, as `--cpu-prof` and the inspector's Profiler write it)
 * into self time per function and per package, so that the profile of a slow round and of a fast
 * one can be set side by side (issue 32). Pure parsing; `profile-summary.ts` prints it.
 */

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** µs */
  startTime: number;
  /** µs */
  endTime: number;
  /** The node on top of the stack at each sample. */
  samples: number[];
  /** µs since the previous sample (the first: since startTime). */
  timeDeltas: number[];
}

export interface SelfTime {
  /** "name url:line", the key functions are summed by (one function sits at many nodes). */
  key: string;
  name: string;
  /** url:line (1-based), or '' for V8's own entries ("(garbage collector)", "(program)"). */
  location: string;
  selfUs: number;
}

/** V8's entry for time the thread waited with nothing to run: not the server's work. */
export const IDLE = '(idle)';

function nameOf(frame: CallFrame): string {
  return frame.functionName || '(anonymous)';
}

function locationOf(frame: CallFrame): string {
  return frame.url ? `${frame.url}:${frame.lineNumber + 1}` : '';
}

/**
 * Self time of every function: a sample lasts until the next one (the last until the profile's
 * end), as Chrome's DevTools count it, and each sample's time goes to the function on top of the
 * stack. Sorted by self time, largest first.
 */
export function selfTimes(profile: CpuProfile): SelfTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const stamps: number[] = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) stamps.push((t += delta));
  const totals = new Map<string, SelfTime>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const end = i + 1 < stamps.length ? stamps[i + 1]! : profile.endTime;
    const us = Math.max(0, end - stamps[i]!);
    const name = nameOf(node.callFrame);
    const location = locationOf(node.callFrame);
    const key = location ? `${name} ${location}` : name;
    const entry = totals.get(key) ?? { key, name, location, selfUs: 0 };
    entry.selfUs += us;
    totals.set(key, entry);
  });
  return [...totals.values()].sort((a, b) => b.selfUs - a.selfUs || a.key.localeCompare(b.key));
}

/**
 * Where a function's code comes from: the package of a `node_modules` path (the last one, scoped
 * names whole), `node:…` for Node's own JavaScript, the workspace folder (`apps/api`) for ours,
 * `(native)` for what has no script: V8's own entries (garbage collector, program, idle) and
 * native bindings (writev).
 */
export function packageOf(location: string): string {
  if (!location) return '(native)';
  const url = location.replace(/:\d+$/, '');
  if (url.startsWith('node:')) return 'node:internal';
  const parts = url.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at >= 0 && parts[at + 1]) {
    const first = parts[at + 1]!;
    return first.startsWith('@') && parts[at + 2] ? `${first}/${parts[at + 2]}` : first;
  }
  for (const root of ['apps', 'packages', 'bench']) {
    const i = parts.lastIndexOf(root);
    if (i >= 0 && parts[i + 1]) return `${root}/${parts[i + 1]}`;
  }
  return url;
}

export interface Share {
  key: string;
  selfUs: number;
  /** Of the busy time (everything but idle): comparable between a slow round and a fast one. */
  share: number;
}

export interface Summary {
  /** The profile's duration, µs. */
  totalUs: number;
  /** Sampled time not idle, µs. */
  busyUs: number;
  functions: Share[];
  packages: Share[];
}

function shares(entries: Iterable<[string, number]>, busyUs: number): Share[] {
  return [...entries]
    .map(([key, selfUs]) => ({ key, selfUs, share: busyUs > 0 ? selfUs / busyUs : 0 }))
    .sort((a, b) => b.selfUs - a.selfUs || a.key.localeCompare(b.key));
}

/** Self time by function and by package, idle left out of both. */
export function summarizeProfile(profile: CpuProfile): Summary {
  const times = selfTimes(profile).filter((s) => s.name !== IDLE);
  const busyUs = times.reduce((n, s) => n + s.selfUs, 0);
  const packages = new Map<string, number>();
  for (const s of times) {
    const pkg = packageOf(s.location);
    packages.set(pkg, (packages.get(pkg) ?? 0) + s.selfUs);
  }
  return {
    totalUs: profile.endTime - profile.startTime,
    busyUs,
    functions: shares(
      times.map((s) => [s.key, s.selfUs]),
      busyUs,
    ),
    packages: shares(packages, busyUs),
  };
}

export interface Comparison {
  key: string;
  /** Shares of each profile's busy time (0 where the key is absent). */
  a: number;
  b: number;
}

/**
 * Two profiles' shares side by side: the `top` largest keys of either, ordered by the larger of
 * the two shares. A function whose share grows in the slow round is where its time went.
 */
export function compareShares(a: readonly Share[], b: readonly Share[], top: number): Comparison[] {
  const keys = new Set([...a.slice(0, top), ...b.slice(0, top)].map((s) => s.key));
  const shareIn = (list: readonly Share[], key: string) => list.find((s) => s.key === key)?.share ?? 0;
  return [...keys]
    .map((key) => ({ key, a: shareIn(a, key), b: shareIn(b, key) }))
    .sort((x, y) => Math.max(y.a, y.b) - Math.max(x.a, x.b) || x.key.localeCompare(y.key));
}
