import lighthouse from 'lighthouse';
import { Audit } from 'lighthouse/core/audits/audit.js';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { LoadSimulator } from 'lighthouse/core/computed/load-simulator.js';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import { playerPath, prepare, signIn, startForLighthouse } from './lighthouse';
import { reportTarget } from './targets';

/**
 * Where Lighthouse's mobile LCP comes from (issue 11, decision 0031). Lighthouse does not time the
 * page on a slow phone: it records it on this machine, then simulates the recorded graph of
 * requests and script evaluations (Lantern: 150 ms round trips, 1.6 Mbit/s, six HTTP/1.1
 * connections per origin, 4x CPU). For the signed-in home and a player page, one mobile run each,
 * this part prints
 * - the simulated LCP (the mean of Lantern's optimistic and pessimistic graphs),
 * - every request in the pessimistic graph with its simulated start, end and bytes,
 * - what each request costs: the simulated LCP of the same graph without it (its dependents then
 *   depend on what it depended on),
 * - a floor: the document's simulated end, one more round trip, and every other byte of the graph
 *   at the link's rate, as if nothing waited for a connection.
 * Figures are context for the issue note (the lighthouse part reports the targets).
 */
const RTT_MS = 150;
const BYTES_PER_MS = (1.6 * 1024 * 1024) / 8 / 1000;

interface Request {
  url: string;
  transferSize: number;
  priority: string;
  resourceType?: string;
}
interface GraphNode {
  type: 'network' | 'cpu';
  request: Request;
  getDependencies(): GraphNode[];
  getDependents(): GraphNode[];
  addDependency(node: GraphNode): void;
  removeDependency(node: GraphNode): void;
  removeDependent(node: GraphNode): void;
  traverse(callback: (node: GraphNode) => void): void;
  cloneWithRelationships(predicate?: (node: GraphNode) => boolean): GraphNode;
  isMainDocument(): boolean;
}
interface TraceEvent {
  name: string;
  dur?: number;
  args?: { data?: { url?: string } };
}
interface Timing {
  startTime: number;
  endTime: number;
}
interface Simulator {
  simulate(graph: GraphNode, options: { label: string }): { nodeTimings: Map<GraphNode, Timing> };
}
interface LcpResult {
  timing: number;
  optimisticGraph: GraphNode;
  pessimisticGraph: GraphNode;
}
type Estimate = (simulation: { nodeTimings: Map<GraphNode, Timing> }) => { timeInMs: number };
const estimate = (
  Lantern.Metrics.LargestContentfulPaint as unknown as { getEstimateFromSimulation: Estimate }
).getEstimateFromSimulation;

/** A copy of the graph without the requests `drop` picks; their dependents take their dependencies. */
function without(graph: GraphNode, drop: (node: GraphNode) => boolean): GraphNode {
  const copy = graph.cloneWithRelationships();
  const nodes: GraphNode[] = [];
  copy.traverse((node) => nodes.push(node));
  for (const node of nodes) {
    if (node.type !== 'network' || node === copy || !drop(node)) continue;
    const parents = node.getDependencies();
    const children = node.getDependents();
    for (const parent of [...parents]) parent.removeDependent(node);
    for (const child of [...children]) {
      child.removeDependency(node);
      for (const parent of parents) child.addDependency(parent);
    }
  }
  return copy;
}

/** Lantern's LCP for both graphs, each without what `drop` picks. */
function simulatedLcp(simulator: Simulator, lcp: LcpResult, drop: (node: GraphNode) => boolean): number {
  const times = [lcp.optimisticGraph, lcp.pessimisticGraph].map(
    (graph, i) =>
      estimate(simulator.simulate(without(graph, drop), { label: i ? 'pessimistic' : 'optimistic' }))
        .timeInMs,
  );
  return (times[0]! + times[1]!) / 2;
}

const shortUrl = (url: string, base: string) => {
  const path = url.replace(base, '');
  return path.length > 60 ? `${path.slice(0, 57)}…` : path;
};

async function analyse(chromePort: number, base: string, url: string, name: string): Promise<void> {
  const result = await lighthouse(url, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: true,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const artifacts = result.artifacts as unknown as { settings: unknown };
  const context = { computedCache: new Map(), settings: artifacts.settings };
  const data = Audit.makeMetricComputationDataInput(result.artifacts as never, context as never);
  const lcp = (await LanternLargestContentfulPaint.request(data, context as never)) as unknown as LcpResult;
  const simulator = (await LoadSimulator.request(
    { devtoolsLog: data.devtoolsLog, settings: context.settings } as never,
    context as never,
  )) as unknown as Simulator;
  const timings = simulator.simulate(lcp.pessimisticGraph, { label: 'pessimistic' }).nodeTimings;
  const requests = [...timings]
    .filter(([node]) => node.type === 'network' && node.request.url.startsWith('http'))
    .sort(([, a], [, b]) => a.startTime - b.startTime);
  const base0 = simulatedLcp(simulator, lcp, () => false);
  console.log(
    `\n### ${name}: Lighthouse's LCP ${(lcp.timing / 1000).toFixed(2)} s ` +
      `(this graph, simulated again: ${(base0 / 1000).toFixed(2)} s)\n`,
  );
  console.log('| request | bytes | simulated start ms | end ms | LCP without it |');
  console.log('|---|---:|---:|---:|---:|');
  let document: Timing | undefined;
  let otherBytes = 0;
  for (const [node, timing] of requests) {
    const isDocument = node.isMainDocument();
    if (isDocument) document = timing;
    else otherBytes += node.request.transferSize;
    const cost = isDocument
      ? '–'
      : `${(simulatedLcp(simulator, lcp, (n) => n.request?.url === node.request.url) / 1000).toFixed(2)} s`;
    console.log(
      `| ${shortUrl(node.request.url, base)} | ${node.request.transferSize} | ${Math.round(timing.startTime)} | ${Math.round(timing.endTime)} | ${cost} |`,
    );
  }
  // BENCH_LANTERN_CPU=1: the main-thread tasks the graph keeps, with what each waits for and starts.
  if (process.env.BENCH_LANTERN_CPU) {
    const name = (n: GraphNode) => (n.type === 'cpu' ? 'task' : shortUrl(n.request.url, base));
    const cpu = [...timings]
      .filter(([node]) => node.type === 'cpu')
      .sort(([, a], [, b]) => a.startTime - b.startTime);
    console.log('\n| task (simulated) | start ms | end ms | after | before |\n|---|---:|---:|---|---|');
    for (const [node, timing] of cpu) {
      const after = node.getDependencies().map(name).join(', ');
      const before = node.getDependents().map(name).join(', ');
      const events = (node as unknown as { childEvents: TraceEvent[] }).childEvents;
      const what = events
        .filter((e) => (e.dur ?? 0) > 2000)
        .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
        .slice(0, 4)
        .map(
          (e) =>
            `${e.name} ${Math.round((e.dur ?? 0) / 1000)} ms${e.args?.data?.url ? ` ${shortUrl(e.args.data.url, base)}` : ''}`,
        )
        .join('; ');
      console.log(
        `| ${what || 'task'} | ${Math.round(timing.startTime)} | ${Math.round(timing.endTime)} | ${after} | ${before} |`,
      );
    }
  }
  const floor = (document?.endTime ?? 0) + RTT_MS + otherBytes / BYTES_PER_MS;
  console.log(
    `\nFloor without connection waits: the document's end ${Math.round(document?.endTime ?? 0)} ms + one round trip ` +
      `${RTT_MS} ms + ${(otherBytes / 1024).toFixed(1)} kB at 1.6 Mbit/s = ${(floor / 1000).toFixed(2)} s.`,
  );
  reportTarget({
    part: 'lantern',
    what: `${name}: simulated LCP / floor without connection waits`,
    figure: `${(lcp.timing / 1000).toFixed(2)} s / ${(floor / 1000).toFixed(2)} s (${requests.length} requests, ${(otherBytes / 1024).toFixed(1)} kB after the document)`,
    target: '',
    met: null,
  });
}

export async function lanternReport(): Promise<void> {
  const { app, base, chrome } = await startForLighthouse();
  try {
    const auth = await signIn(base);
    console.log('\n## Lantern: what Lighthouse simulates before the mobile LCP');
    for (const [name, path] of [
      ['/ (signed in)', '/'],
      ['player /session/{id}', await playerPath(base, auth)],
    ] as const) {
      // Tried again once when Chromium's trace came without its navigation start (NO_NAVSTART,
      // NO_FCP: Lighthouse's own "run again" errors), as the lighthouse part does.
      for (let attempt = 1; ; attempt++) {
        await prepare(chrome, base, auth);
        try {
          await analyse(chrome.port, base, base + path, name);
          break;
        } catch (error) {
          if (attempt >= 2 || !/NO_NAVSTART|NO_FCP/.test(String(error))) throw error;
          console.log(`(Lighthouse asked to run again on ${path}: ${String(error)})`);
        }
      }
    }
  } finally {
    chrome.kill();
    await app.stop();
  }
}
