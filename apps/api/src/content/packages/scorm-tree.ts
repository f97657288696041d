/**
 * A SCORM package's organization as the player plays it (issue 39 item 2): its items as a tree,
 * each SCO with its launch and the settings its runtime needs, and for SCORM 2004 the
 * sequencing of IMS Simple Sequencing (`imsss:*`, `adlseq:*`) written in the settings
 * scorm-again's sequencing engine takes (its `SequencingSettings`: activity tree, collections).
 * The engine runs in the bridge; this file only reads the manifest, once, at import.
 */

import { attr, list, obj, text } from './xml-nodes';
import type { Node } from './xml-nodes';

const bool = (n: Node, name: string): boolean | undefined => {
  const v = attr(n, name);
  return v === 'true' ? true : v === 'false' ? false : undefined;
};
const decimal = (v: string | null): number | undefined => {
  if (v === null) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};
/** Drops the keys whose value is undefined (the summary is stored as JSON: no noise). */
function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** What one SCO's runtime is loaded with (cmi.student_data, cmi.scaled_passing_score...). */
export interface ScoSettings {
  /** 1.2 `adlcp:masteryscore` (0..100) → cmi.student_data.mastery_score. */
  masteryScore: number | null;
  /** 2004 primary objective's minNormalizedMeasure when satisfied by measure → cmi.scaled_passing_score. */
  scaledPassingScore: number | null;
  /** 2004 `adlcp:completionThreshold` → cmi.completion_threshold. */
  completionThreshold: number | null;
  /** `adlcp:datafromlms` / `dataFromLMS` → cmi.launch_data. */
  launchData: string | null;
  maxTimeAllowed: string | null;
  timeLimitAction: string | null;
}

/** An item of the organization: a SCO or asset (with its launch), or a cluster of items. */
export interface ScormNode {
  id: string;
  title: string;
  /** The launch inside the package (path and parameters); absent on a cluster. */
  entry?: string;
  /** `isvisible="false"`: played, never listed. */
  hidden?: boolean;
  settings?: ScoSettings;
  children?: ScormNode[];
}

/** The leaves that launch, in the organization's order: what a learner moves through. */
export function scosOf(node: ScormNode): ScormNode[] {
  if (node.entry) return [node];
  return (node.children ?? []).flatMap(scosOf);
}

// ---- SCORM 2004 sequencing → scorm-again's SequencingSettings ----

type Json = Record<string, unknown>;

function ruleConditions(rule: Node) {
  const conds = obj(rule.ruleConditions);
  return {
    conditionCombination: attr(conds, 'conditionCombination') ?? 'all',
    conditions: list(conds.ruleCondition).map((c) =>
      defined({
        condition: attr(c, 'condition') ?? 'always',
        operator: attr(c, 'operator') === 'not' ? 'not' : undefined,
        referencedObjective: attr(c, 'referencedObjective') ?? undefined,
        parameters:
          attr(c, 'measureThreshold') !== null
            ? { threshold: decimal(attr(c, 'measureThreshold')) ?? 0 }
            : undefined,
      }),
    ),
  };
}

function sequencingRules(rules: Node): Json | undefined {
  const of = (name: string) =>
    list(rules[name]).map((r) => ({
      action: attr(obj(r.ruleAction), 'action') ?? 'skip',
      ...ruleConditions(r),
    }));
  const out = defined({
    preConditionRules: list(rules.preConditionRule).length ? of('preConditionRule') : undefined,
    exitConditionRules: list(rules.exitConditionRule).length ? of('exitConditionRule') : undefined,
    postConditionRules: list(rules.postConditionRule).length ? of('postConditionRule') : undefined,
  });
  return Object.keys(out).length ? out : undefined;
}

function rollupRules(rollup: Node): Json | undefined {
  const rules = list(rollup.rollupRule).map((r) => {
    const conds = obj(r.rollupConditions);
    return defined({
      action: attr(obj(r.rollupAction), 'action') ?? 'satisfied',
      consideration: attr(r, 'childActivitySet') ?? 'all',
      minimumCount: decimal(attr(r, 'minimumCount')),
      minimumPercent: decimal(attr(r, 'minimumPercent')),
      conditionCombination: attr(conds, 'conditionCombination') ?? 'any',
      conditions: list(conds.rollupCondition).map((c) =>
        defined({
          condition: attr(c, 'condition') ?? 'always',
          operator: attr(c, 'operator') === 'not' ? 'not' : undefined,
        }),
      ),
    });
  });
  return rules.length ? { rules } : undefined;
}

function objective(o: Node, isPrimary: boolean): Json {
  return defined({
    objectiveID: attr(o, 'objectiveID') ?? (isPrimary ? 'PRIMARYOBJ' : ''),
    isPrimary: isPrimary || undefined,
    satisfiedByMeasure: bool(o, 'satisfiedByMeasure'),
    minNormalizedMeasure: decimal(text(o.minNormalizedMeasure)),
    mapInfo: list(o.mapInfo).length
      ? list(o.mapInfo).map((m) =>
          defined({
            targetObjectiveID: attr(m, 'targetObjectiveID') ?? '',
            readSatisfiedStatus: bool(m, 'readSatisfiedStatus') ?? true,
            readNormalizedMeasure: bool(m, 'readNormalizedMeasure') ?? true,
            writeSatisfiedStatus: bool(m, 'writeSatisfiedStatus') ?? false,
            writeNormalizedMeasure: bool(m, 'writeNormalizedMeasure') ?? false,
          }),
        )
      : undefined,
  });
}

const ADLSEQ_MAP = [
  'readCompletionStatus',
  'writeCompletionStatus',
  'readProgressMeasure',
  'writeProgressMeasure',
  'readRawScore',
  'writeRawScore',
  'readMinScore',
  'writeMinScore',
  'readMaxScore',
  'writeMaxScore',
] as const;

/**
 * SCORM 2004 4th edition's `adlseq:objectives`: more of an `imsss` objective's maps (completion,
 * progress, scores), by the objective's id. Merged into that objective's `mapInfo`, as the
 * engine takes them.
 */
function mergeAdlseq(objectives: Json[], adlseq: Node[]): void {
  for (const group of adlseq)
    for (const o of list(group.objective)) {
      const target = objectives.find((x) => x.objectiveID === attr(o, 'objectiveID'));
      if (!target) continue;
      const maps = (target.mapInfo as Json[] | undefined) ?? [];
      for (const m of list(o.mapInfo)) {
        const id = attr(m, 'targetObjectiveID');
        if (!id) continue;
        const extra = defined(Object.fromEntries(ADLSEQ_MAP.map((k) => [k, bool(m, k)])));
        const same = maps.find((x) => x.targetObjectiveID === id);
        if (same) Object.assign(same, extra);
        else
          maps.push({
            targetObjectiveID: id,
            readSatisfiedStatus: false,
            readNormalizedMeasure: false,
            writeSatisfiedStatus: false,
            writeNormalizedMeasure: false,
            ...extra,
          });
      }
      if (maps.length) target.mapInfo = maps;
    }
}

/** One `imsss:sequencing` element (an item's, the organization's, or a collection's). */
export function sequencingOf(seq: Node): Json {
  const control = obj(seq.controlMode);
  const rollup = obj(seq.rollupRules);
  const random = obj(seq.randomizationControls);
  const delivery = obj(seq.deliveryControls);
  const limits = obj(seq.limitConditions);
  const constrained = obj(seq.constrainedChoiceConsiderations);
  const considerations = obj(seq.rollupConsiderations);
  // imsss:objectives and adlseq:objectives share a local name: the one with a primary objective.
  const groups = list(seq.objectives);
  const objectives = groups.find((o) => o.primaryObjective !== undefined) ?? {};
  const primary = objectives.primaryObjective !== undefined ? obj(objectives.primaryObjective) : null;
  const converted = [
    ...(primary ? [objective(primary, true)] : []),
    ...list(objectives.objective).map((o) => objective(o, false)),
  ];
  mergeAdlseq(
    converted,
    groups.filter((g) => g !== objectives),
  );
  const controls = defined({
    choice: bool(control, 'choice'),
    choiceExit: bool(control, 'choiceExit'),
    flow: bool(control, 'flow'),
    forwardOnly: bool(control, 'forwardOnly'),
    useCurrentAttemptObjectiveInfo: bool(control, 'useCurrentAttemptObjectiveInfo'),
    useCurrentAttemptProgressInfo: bool(control, 'useCurrentAttemptProgressInfo'),
    rollupObjectiveSatisfied: bool(rollup, 'rollupObjectiveSatisfied'),
    rollupProgressCompletion: bool(rollup, 'rollupProgressCompletion'),
    objectiveMeasureWeight: decimal(attr(rollup, 'objectiveMeasureWeight')),
    preventActivation: bool(constrained, 'preventActivation'),
    constrainChoice: bool(constrained, 'constrainChoice'),
    selectionTiming: attr(random, 'selectionTiming') ?? undefined,
    selectCount: decimal(attr(random, 'selectCount')),
    randomizationTiming: attr(random, 'randomizationTiming') ?? undefined,
    reorderChildren: bool(random, 'reorderChildren'),
  });
  const deliveryControls = defined({
    tracked: bool(delivery, 'tracked'),
    completionSetByContent: bool(delivery, 'completionSetByContent'),
    objectiveSetByContent: bool(delivery, 'objectiveSetByContent'),
  });
  const rollupConsiderations = defined({
    requiredForSatisfied: attr(considerations, 'requiredForSatisfied') ?? undefined,
    requiredForNotSatisfied: attr(considerations, 'requiredForNotSatisfied') ?? undefined,
    requiredForCompleted: attr(considerations, 'requiredForCompleted') ?? undefined,
    requiredForIncomplete: attr(considerations, 'requiredForIncomplete') ?? undefined,
    measureSatisfactionIfActive: bool(considerations, 'measureSatisfactionIfActive'),
  });
  return defined({
    sequencingControls: Object.keys(controls).length ? controls : undefined,
    deliveryControls: Object.keys(deliveryControls).length ? deliveryControls : undefined,
    rollupConsiderations: Object.keys(rollupConsiderations).length ? rollupConsiderations : undefined,
    sequencingRules: sequencingRules(obj(seq.sequencingRules)),
    rollupRules: rollupRules(rollup),
    primaryObjective: primary ? converted[0] : undefined,
    objectives: converted.length > (primary ? 1 : 0) ? converted.slice(primary ? 1 : 0) : undefined,
    attemptLimit: decimal(attr(limits, 'attemptLimit')),
    attemptAbsoluteDurationLimit: attr(limits, 'attemptAbsoluteDurationLimit') ?? undefined,
  });
}

/**
 * An activity of scorm-again's tree for an item (or the organization): its own sequencing,
 * with the collection it names (`IDRef`) given by reference as the engine resolves it.
 */
function activityOf(n: Node, id: string, title: string, children: Json[] | undefined): Json {
  const seq = list(n.sequencing)[0];
  const own = seq ? sequencingOf(seq) : {};
  const ref = seq ? attr(seq, 'IDRef') : null;
  const hideLmsUi = list(obj(obj(n.presentation).navigationInterface).hideLMSUI)
    .map((h) => text(h))
    .filter((h): h is string => !!h);
  const completion = n.completionThreshold !== undefined ? obj(n.completionThreshold) : null;
  // 4th edition's shared data (adlcp:data / adlcp:map): adl.data, shared by the SCOs that map it.
  const sharedDataMaps = list(obj(n.data).map)
    .filter((m) => attr(m, 'targetID'))
    .map((m) =>
      defined({
        targetID: attr(m, 'targetID') as string,
        readSharedData: bool(m, 'readSharedData'),
        writeSharedData: bool(m, 'writeSharedData'),
      }),
    );
  return defined({
    id,
    title,
    isVisible: attr(n, 'isvisible') === 'false' ? false : undefined,
    ...own,
    sequencingCollectionRefs: ref ?? undefined,
    hideLmsUi: hideLmsUi.length ? hideLmsUi : undefined,
    sharedDataMaps: sharedDataMaps.length ? sharedDataMaps : undefined,
    completionThreshold: completion
      ? defined({
          completedByMeasure: bool(completion, 'completedByMeasure'),
          minProgressMeasure: decimal(attr(completion, 'minProgressMeasure') ?? text(completion)),
          progressWeight: decimal(attr(completion, 'progressWeight')),
        })
      : undefined,
    children,
  });
}

/** The organization's activity tree and the manifest's sequencing collections, for the engine. */
export function sequencingSettings(
  manifest: Node,
  org: Node,
  titleOf: (n: Node) => string,
): { activityTree: Json; collections?: Record<string, Json> } {
  const walk = (n: Node): Json => {
    const items = list(n.item);
    return activityOf(n, attr(n, 'identifier') ?? '', titleOf(n), items.length ? items.map(walk) : undefined);
  };
  const collections: Record<string, Json> = {};
  for (const c of list(obj(manifest.sequencingCollection).sequencing)) {
    const id = attr(c, 'ID');
    if (id) collections[id] = { id, ...sequencingOf(c) };
  }
  return defined({
    activityTree: walk(org),
    collections: Object.keys(collections).length ? collections : undefined,
  });
}
