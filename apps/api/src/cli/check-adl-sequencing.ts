/**
 * ADL's SCORM 2004 4th Edition conformance test packages (LMSTestPackage_*, the CTS's sequencing,
 * rollup and objectives courses) through the importer and scorm-again's sequencing engine
 * (issue 39 item 2): each manifest read as Parcours reads it, its sequencing settings given to
 * the engine, a `start` asked, and the SCOs the engine delivers by `continue` counted. The
 * packages are read from a git clone, never committed: ADL's own repository
 * (adlnet/SCORM-2004-4ed-Test-Suite) or the copy kept by jcputney/elearning-module-parser.
 *
 *   ADL_CTS_GIT=/path/to/clone/.git ADL_CTS_PREFIX=src/test/resources/modules/conformance/scorm2004/adl-cts/ \
 *     npx tsx apps/api/src/cli/check-adl-sequencing.ts
 * Exit 1 when a manifest is refused or the engine cannot start a course that has SCOs.
 */
import { execFileSync } from 'node:child_process';
import * as scorm2004 from 'scorm-again/scorm2004';
import type Scorm2004Class from 'scorm-again/scorm2004';
import { readManifest } from '../content/packages/manifest';
import { scosOf } from '../content/packages/scorm-tree';

const Scorm2004API = (scorm2004 as unknown as { Scorm2004API: typeof Scorm2004Class }).Scorm2004API;
const gitDir = process.env.ADL_CTS_GIT;
const prefix = process.env.ADL_CTS_PREFIX ?? 'TestSuite/LMSRTE/Courses/';
const rev = process.env.ADL_CTS_REV ?? 'HEAD';
if (!gitDir) throw new Error('ADL_CTS_GIT: the .git of a clone holding the CTS packages');
const git = (...args: string[]) =>
  execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 64 * 1024 * 1024 }).toString();

const manifests = git('ls-tree', '-r', '--name-only', rev, prefix)
  .split('\n')
  .filter((f) => /LMSTestPackage_[^/]+\/imsmanifest\.xml$/.test(f));
// Launch files are checked by the importer's own tests; here every href counts as present.
const anyFile = { has: () => true } as unknown as ReadonlyMap<string, number>;
let refused = 0;
let stuck = 0;
let played = 0;
for (const file of manifests) {
  const name = /LMSTestPackage_([^/]+)/.exec(file)?.[1] ?? file;
  const xml = Buffer.from(git('show', `${rev}:${file}`));
  let m;
  try {
    m = readManifest(anyFile, (n) => (n === 'imsmanifest.xml' ? xml : undefined));
  } catch (err) {
    refused += 1;
    console.log(`${name}: refused — ${(err as Error).message}`);
    continue;
  }
  const tree = m.scorm?.tree;
  if (!tree || !m.scorm?.sequencing) {
    console.log(`${name}: one SCO (no sequencing to run)`);
    continue;
  }
  const delivered: string[] = [];
  const api = new Scorm2004API({
    logLevel: 5,
    sequencing: {
      ...(m.scorm.sequencing as object),
      eventListeners: { onActivityDelivery: (a: { id: string }) => delivered.push(a.id) },
    },
  } as never);
  try {
    // As the bridge does: a course without flow starts by the learner's choice of its first SCO.
    if (!api.processNavigationRequest('start')) api.processNavigationRequest('choice', scosOf(tree)[0]?.id);
    for (let i = 0; i < 50 && delivered.length; i++) {
      const before = delivered.length;
      api.Initialize('');
      api.SetValue('cmi.completion_status', 'completed');
      api.SetValue('cmi.success_status', 'passed');
      api.SetValue('adl.nav.request', 'continue');
      api.Terminate('');
      if (delivered.length === before) break;
      api.reset(undefined, { preserveListeners: true });
    }
  } catch (err) {
    console.log(`${name}: engine error — ${(err as Error).message}`);
  }
  if (!delivered.length) {
    stuck += 1;
    console.log(`${name}: the engine delivered nothing (${scosOf(tree).length} SCOs)`);
  } else {
    played += 1;
    console.log(
      `${name}: ${new Set(delivered).size} of ${scosOf(tree).length} SCOs delivered by start / continue`,
    );
  }
}
console.log(
  `\n${manifests.length} packages: ${played} started by the engine, ${stuck} not, ${refused} refused`,
);
process.exit(refused + stuck === 0 ? 0 : 1);
