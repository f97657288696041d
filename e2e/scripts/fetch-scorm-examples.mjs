#!/usr/bin/env node
/**
 * Fetches the SCORM examples the package journeys play (issue 39 item 2) into
 * e2e/fixtures/scorm-examples-tenant/packages/ (gitignored), one zip per example, as a learner's organisation would upload them:
 * Rustici Software's "golf examples" (CC BY 3.0, https://scorm.com/scorm-explained/technical-scorm/golf-examples/),
 * as kept unzipped in the test resources of jcputney/elearning-module-parser (Apache-2.0), at a
 * pinned commit. Nothing here is written by us: the journeys play what the world ships.
 *
 *   node e2e/scripts/fetch-scorm-examples.mjs              # shallow sparse clone from GitHub
 *   SCORM_EXAMPLES_GIT=/path/to/a/clone/.git node ...      # or read a local clone / mirror
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';

const REPO = 'https://github.com/jcputney/elearning-module-parser.git';
const COMMIT = 'c4c7352d8a45c4d1da43a82dd791e9f850a2e637';
const BASE = 'src/test/resources/modules';
export const EXAMPLES = [
  'scorm12/RuntimeBasicCalls_SCORM12',
  'scorm12/RuntimeMinimumCalls_SCORM12',
  'scorm12/ContentPackagingOneFilePerSCO_SCORM12',
  'scorm2004/ContentPackagingOneFilePerSCO_SCORM20043rdEdition',
  'scorm2004/SequencingForcedSequential_SCORM20043rdEdition',
  'scorm2004/SequencingSimpleRemediation_SCORM20043rdEdition',
  'scorm2004/SequencingPostTestRollup4thEd_SCORM20044thEdition',
];

const out = path.resolve(import.meta.dirname, '../fixtures/scorm-examples-tenant/packages');
mkdirSync(out, { recursive: true });

let gitDir = process.env.SCORM_EXAMPLES_GIT ?? null;
let scratch = null;
if (!gitDir) {
  scratch = mkdtempSync(path.join(tmpdir(), 'scorm-examples-'));
  const git = (...args) => execFileSync('git', args, { cwd: scratch, stdio: 'inherit' });
  git('init', '-q');
  git('remote', 'add', 'origin', REPO);
  git('fetch', '-q', '--depth=1', '--filter=blob:none', 'origin', COMMIT);
  gitDir = path.join(scratch, '.git');
}
const git = (...args) =>
  execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 256 * 1024 * 1024 });

for (const example of EXAMPLES) {
  const name = path.basename(example);
  const target = path.join(out, `${name}.zip`);
  if (existsSync(target)) continue;
  const prefix = `${BASE}/${example}/`;
  const files = git('ls-tree', '-r', '--name-only', COMMIT, prefix).toString().split('\n').filter(Boolean);
  if (!files.length) throw new Error(`${example}: not found at ${COMMIT}`);
  const entries = {};
  for (const file of files)
    entries[file.slice(prefix.length)] = [
      new Uint8Array(git('show', `${COMMIT}:${file}`)),
      { mtime: new Date('2020-01-01T00:00:00Z') },
    ];
  writeFileSync(target, zipSync(entries));
  console.log(`${name}.zip: ${files.length} files`);
}
if (scratch) rmSync(scratch, { recursive: true, force: true });
