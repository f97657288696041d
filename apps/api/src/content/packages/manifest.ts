/**
 * What a package's manifest says (issue 31): its kind, title, launch file and the settings the
 * runtime needs. `imsmanifest.xml` (SCORM 1.2 or 2004, told apart by `schemaversion`, else by the
 * ADL namespace), `cmi5.xml` (a cmi5 course structure, every AU: cmi5-structure.ts) or
 * `tincan.xml` (the first activity with a launch). A SCORM package plays its whole organization
 * (issue 39: every SCO, in a table of contents; scorm-tree.ts); a cmi5 course plays whole
 * (docs/content-format.md "Packages").
 */
import { XMLParser } from 'fast-xml-parser';
import type { PackageKind } from '@parcours/domain/entities';
import { PackageError } from './zip';
import { scosOf, sequencingSettings } from './scorm-tree';
import type { ScormNode, ScoSettings } from './scorm-tree';
import { readCmi5Structure } from './cmi5-structure';
import type { Cmi5Au, Cmi5Block, MoveOn } from './cmi5-structure';
import { attr, list, obj, text } from './xml-nodes';
import type { Node } from './xml-nodes';

export const MANIFEST_FILES = ['cmi5.xml', 'imsmanifest.xml', 'tincan.xml'] as const;
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

export { MOVE_ON } from './cmi5-structure';
export type { MoveOn } from './cmi5-structure';

/** The first SCO's runtime settings (scorm-tree.ts `ScoSettings`), with the package's own. */
export interface ScormSettings extends ScoSettings {
  /** The SCO's item identifier in the manifest. */
  item: string;
  /** schemaversion as written ("1.2", "2004 4th Edition"...), or the namespace's version. */
  schemaVersion: string;
  /**
   * The default organization, every item (issue 39), when it has more than one SCO; absent for a
   * single SCO (and in summaries stored before): the fields above are then the SCO's.
   */
  tree?: ScormNode;
  /** SCORM 2004 with several SCOs: scorm-again's sequencing settings (activity tree, collections). */
  sequencing?: Record<string, unknown>;
}

export interface Cmi5Settings {
  courseId: string;
  /** The AU's publisher id (its `id` in cmi5.xml). */
  auId: string;
  auCount: number;
  moveOn: MoveOn;
  masteryScore: number | null;
  launchMethod: 'AnyWindow' | 'OwnWindow';
  launchParameters: string | null;
  entitlementKey: string | null;
  activityType: string | null;
  /** Every AU in document order (issue 39; absent in summaries written before: the one AU above). */
  aus?: Cmi5Au[];
  blocks?: Cmi5Block[];
}

export interface PackageManifest {
  kind: PackageKind;
  title: string;
  /** The launch inside the package: a path relative to its root, with the query it brings. */
  entry: string;
  scorm?: ScormSettings;
  cmi5?: Cmi5Settings;
  xapi?: { activityId: string };
}

const ARRAYS = new Set([
  'organization',
  'item',
  'resource',
  'file',
  'au',
  'block',
  'activity',
  'langstring',
  'launch',
  'name',
  'preConditionRule',
  'exitConditionRule',
  'postConditionRule',
  'ruleCondition',
  'rollupRule',
  'rollupCondition',
  'objective',
  'mapInfo',
  'hideLMSUI',
  'map',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name, _jpath, _leaf, isAttribute) => !isAttribute && ARRAYS.has(name),
});

function parseXml(name: string, data: Buffer): Node {
  if (data.length > MAX_MANIFEST_BYTES) throw new PackageError(`${name} is larger than 4 MB`);
  const xml = data.toString('utf8').replace(/^\uFEFF/, '');
  // No manifest of a real package declares entities; refusing them closes entity expansion.
  if (/<!ENTITY/i.test(xml)) throw new PackageError(`${name} declares XML entities`);
  try {
    return parser.parse(xml, true) as Node;
  } catch (err) {
    throw new PackageError(`${name} is not well-formed XML (${(err as Error).message.split('\n')[0]})`);
  }
}

const isAbsoluteUrl = (u: string) => /^[a-z][a-z0-9+.-]*:/i.test(u) || u.startsWith('//');

/** The file part of a launch (no query or fragment), decoded as the zip names it. */
export function launchFile(entry: string): string {
  const path = entry.split(/[?#]/)[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Joins xml:base values and a href, as relative URL paths; null when one escapes the package. */
function joinBase(parts: (string | null)[], href: string): string | null {
  const joined = [...parts.filter((p): p is string => !!p), href]
    .reduce((acc, p) => (acc === '' || p.startsWith('/') ? p : acc.replace(/[^/]*$/, '') + p), '')
    .replace(/^\.\//, '');
  const [path, ...rest] = joined.split(/(?=[?#])/);
  const out: string[] = [];
  for (const seg of (path ?? '').split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..') {
      if (!out.length) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/') + rest.join('');
}

function requireLaunch(
  kind: string,
  entry: string | null,
  files: ReadonlyMap<string, number>,
  what: string,
): string {
  if (!entry) throw new PackageError(`launch file missing: ${what} names no launch file`);
  if (isAbsoluteUrl(entry))
    throw new PackageError(`launch file missing: ${what} launches "${entry}", outside the package`);
  const file = launchFile(entry);
  if (file.split('/').includes('..'))
    throw new PackageError(`a path escaping the package in the ${kind} launch "${entry}"`);
  if (!files.has(file))
    throw new PackageError(`launch file missing: "${file}" (${what}) is not in the package`);
  return entry;
}

const number = (s: string | null, min: number, max: number, what: string): number | null => {
  if (s === null) return null;
  const n = Number(s);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new PackageError(`${what} "${s}" is not between ${min} and ${max}`);
  return n;
};

/** SCORM 1.2 or 2004, from `schemaversion` first, else from the ADL namespace the manifest uses. */
export function scormVersionOf(
  xml: string,
  schemaVersion: string | null,
): { kind: PackageKind; version: string } {
  if (schemaVersion !== null) {
    if (/^1\.2$/.test(schemaVersion)) return { kind: 'scorm12', version: schemaVersion };
    if (/^(2004 (3rd|4th) Edition|CAM 1\.3)$/i.test(schemaVersion))
      return { kind: 'scorm2004', version: schemaVersion };
    throw new PackageError(
      `unknown schema version "${schemaVersion}" in imsmanifest.xml (1.2, 2004 3rd or 4th Edition)`,
    );
  }
  if (/adlcp_rootv1p2/.test(xml)) return { kind: 'scorm12', version: '1.2' };
  if (/adlcp_v1p3/.test(xml)) return { kind: 'scorm2004', version: '2004' };
  throw new PackageError('unknown schema version: imsmanifest.xml has no schemaversion and no ADL namespace');
}

function scormManifest(data: Buffer, files: ReadonlyMap<string, number>): PackageManifest {
  const doc = parseXml('imsmanifest.xml', data);
  const root = obj(doc.manifest);
  if (!Object.keys(root).length) throw new PackageError('imsmanifest.xml has no <manifest> element');
  const { kind, version } = scormVersionOf(data.toString('utf8'), text(obj(root.metadata).schemaversion));
  const orgs = obj(root.organizations);
  const all = list(orgs.organization);
  const org = all.find((o) => attr(o, 'identifier') === attr(orgs, 'default')) ?? all[0];
  const resources = obj(root.resources);
  const byId = new Map(list(resources.resource).map((r) => [attr(r, 'identifier'), r]));

  /** The launch of a resource, with the item's parameters; refused when it is not in the package. */
  const launchOf = (resource: Node, item: Node | null): string => {
    const href = attr(resource, 'href');
    const base = joinBase([attr(root, 'base'), attr(resources, 'base'), attr(resource, 'base')], href ?? '');
    if (href && base === null) throw new PackageError(`a path escaping the package in the launch "${href}"`);
    let entry = href ? base : null;
    const params = item ? attr(item, 'parameters') : null;
    if (entry && params) {
      const p = params.replace(/^[?&]/, '');
      entry = params.startsWith('#') ? entry + params : `${entry}${entry.includes('?') ? '&' : '?'}${p}`;
    }
    return requireLaunch('SCORM', entry, files, `resource "${attr(resource, 'identifier') ?? '?'}"`);
  };
  const settingsOf = (it: Node): ScoSettings => {
    const primary = obj(obj(obj(it.sequencing).objectives).primaryObjective);
    const threshold = it.completionThreshold;
    return {
      masteryScore: number(text(it.masteryscore), 0, 100, 'adlcp:masteryscore'),
      scaledPassingScore:
        attr(primary, 'satisfiedByMeasure') === 'true'
          ? number(text(primary.minNormalizedMeasure), -1, 1, 'imsss:minNormalizedMeasure')
          : null,
      completionThreshold: number(
        attr(obj(threshold), 'minProgressMeasure') ?? text(threshold),
        0,
        1,
        'adlcp:completionThreshold',
      ),
      launchData: text(it.datafromlms) ?? text(it.dataFromLMS),
      maxTimeAllowed: text(it.maxtimeallowed),
      timeLimitAction: text(it.timelimitaction) ?? text(it.timeLimitAction),
    };
  };
  const titleOf = (it: Node) => text(it.title) ?? attr(it, 'identifier') ?? '';
  // The organization's items, depth first: each that names a resource is a SCO (or asset).
  const nodeOf = (it: Node): ScormNode => {
    const id = attr(it, 'identifier') ?? '';
    const ref = attr(it, 'identifierref');
    const children = list(it.item).map(nodeOf);
    const node: ScormNode = { id, title: titleOf(it) };
    if (attr(it, 'isvisible') === 'false') node.hidden = true;
    if (ref) {
      const resource = byId.get(ref);
      if (!resource)
        throw new PackageError(`launch file missing: item "${id}" names no resource of the manifest`);
      node.entry = launchOf(resource, it);
      node.settings = settingsOf(it);
    }
    if (children.length) node.children = children;
    return node;
  };
  const tree: ScormNode | null = org
    ? { id: attr(org, 'identifier') ?? 'org', title: titleOf(org), children: list(org.item).map(nodeOf) }
    : null;
  const scos = tree ? scosOf(tree) : [];
  const first = scos[0];
  let entry: string;
  let settings: ScoSettings;
  let item: string;
  if (first?.entry && first.settings) {
    entry = first.entry;
    settings = first.settings;
    item = first.id;
  } else {
    // A manifest without organizations may still have one launchable resource.
    const resource = list(resources.resource).find((r) => attr(r, 'href'));
    if (!resource)
      throw new PackageError('launch file missing: imsmanifest.xml has no resource with an href');
    entry = launchOf(resource, null);
    settings = settingsOf({});
    item = attr(resource, 'identifier') ?? 'sco';
  }
  const title = text(obj(org).title) ?? first?.title ?? attr(root, 'identifier') ?? 'SCORM package';
  const multi = tree !== null && scos.length > 1;
  return {
    kind,
    title,
    entry,
    scorm: {
      item,
      schemaVersion: version,
      ...settings,
      ...(multi ? { tree } : {}),
      ...(multi && kind === 'scorm2004' && org ? { sequencing: sequencingSettings(root, org, titleOf) } : {}),
    },
  };
}

function cmi5Manifest(data: Buffer, files: ReadonlyMap<string, number> | null): PackageManifest {
  if (data.length > MAX_MANIFEST_BYTES) throw new PackageError('cmi5.xml is larger than 4 MB');
  const xml = data.toString('utf8').replace(/^\uFEFF/, '');
  if (/<!ENTITY/i.test(xml)) throw new PackageError('cmi5.xml declares XML entities');
  const structure = readCmi5Structure(xml, files);
  const au = structure.aus[0] as Cmi5Au;
  return {
    kind: 'cmi5',
    title: structure.title,
    entry: au.url,
    cmi5: {
      courseId: structure.courseId,
      auId: au.id,
      auCount: structure.aus.length,
      moveOn: au.moveOn,
      masteryScore: au.masteryScore,
      launchMethod: au.launchMethod,
      launchParameters: au.launchParameters,
      entitlementKey: au.entitlementKey,
      activityType: au.activityType,
      aus: structure.aus,
      blocks: structure.blocks,
    },
  };
}

/** A cmi5 course structure imported alone (cmi5 §14.2): every AU at an absolute URL. */
export function readCmi5Xml(data: Buffer): PackageManifest {
  return cmi5Manifest(data, null);
}

/** The settings of the course's AU at `index` (the first when the summary predates multi-AU courses). */
export function auSettings(
  c: Cmi5Settings,
  index: number,
): (Cmi5Settings & { title: string; url: string | null; blockIds: string[] }) | null {
  if (!c.aus) return index === 0 ? { ...c, title: c.auId, url: null, blockIds: [] } : null;
  const au = c.aus[index];
  if (!au) return null;
  return {
    ...c,
    auId: au.id,
    moveOn: au.moveOn,
    masteryScore: au.masteryScore,
    launchMethod: au.launchMethod,
    launchParameters: au.launchParameters,
    entitlementKey: au.entitlementKey,
    activityType: au.activityType,
    title: au.title,
    url: au.url,
    blockIds: au.blocks,
  };
}

function tincanManifest(data: Buffer, files: ReadonlyMap<string, number>): PackageManifest {
  const root = obj(parseXml('tincan.xml', data).tincan);
  if (!Object.keys(root).length) throw new PackageError('tincan.xml has no <tincan> element');
  const activities = list(obj(root.activities).activity);
  const activity = activities.find((a) => text(a.launch));
  if (!activity) throw new PackageError('launch file missing: no activity of tincan.xml has a <launch>');
  const activityId = attr(activity, 'id');
  if (!activityId) throw new PackageError('tincan.xml: the launched activity has no id');
  const entry = requireLaunch('xAPI', text(activity.launch), files, `activity "${activityId}"`);
  return {
    kind: 'xapi',
    title: text(activity.name) ?? 'xAPI module',
    entry: entry.replace(/^\.\//, ''),
    xapi: { activityId },
  };
}

/**
 * The package's manifest: cmi5.xml first (a cmi5 package may also carry tincan.xml), then
 * imsmanifest.xml, then tincan.xml, each at the package's root. `read` gives a root file's bytes.
 */
export function readManifest(
  files: ReadonlyMap<string, number>,
  read: (name: string) => Buffer | undefined,
): PackageManifest {
  const cmi5 = read('cmi5.xml');
  if (cmi5) return cmi5Manifest(cmi5, files);
  const scorm = read('imsmanifest.xml');
  if (scorm) return scormManifest(scorm, files);
  const tincan = read('tincan.xml');
  if (tincan) return tincanManifest(tincan, files);
  const nested = [...files.keys()].find((f) => /(^|\/)(imsmanifest|cmi5|tincan)\.xml$/.test(f));
  throw new PackageError(
    nested
      ? `no manifest at the package's root (found "${nested}": zip the folder's content, not the folder)`
      : 'no manifest (imsmanifest.xml, cmi5.xml or tincan.xml)',
  );
}
