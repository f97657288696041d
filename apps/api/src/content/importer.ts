/**
 * Imports a content folder (docs/content-format.md) into the database: every file is parsed and
 * validated first (zod, then cross-references), ALL problems are reported with file and path,
 * and nothing is written unless there are none. Writes run in one transaction and compare
 * before writing, so importing the same folder twice on the same day changes nothing.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import type { Db } from '../db/db';
import { hashPassword, verifyPassword } from '../lib/password';
import { stableId } from '../lib/ids';
import type { BlockRefs, FileRef } from './blocks';
import { buildBlock } from './blocks';
import { coursePages, ensureLessons } from './enrolment';
import type {
  BlockFile,
  ClassesFile,
  CourseFile,
  NodeFile,
  ProgramCourseFile,
  ProgramsFile,
  TenantFile,
  UsersFile,
} from './format';
import {
  CLICKABLE_IMAGE_WIDTH,
  classesSchema,
  courseSchema,
  parsePickWords,
  programsSchema,
  resolveDate,
  tenantSchema,
  usersSchema,
} from './format';
import { sanitizeContentHtml } from './sanitize';
import type { TableChanges } from './writer';
import { Writer } from './writer';

export interface ImportIssue {
  file: string;
  path: string;
  message: string;
}
export interface ImportReport {
  ok: boolean;
  errors: ImportIssue[];
  changes: Record<string, TableChanges>;
}

// ---------------------------------------------------------------------------------------------
// Loading

interface Loaded<T> {
  file: string; // relative to the content folder, with forward slashes
  data: T;
}
interface TenantBundle {
  dir: string;
  tenant: Loaded<TenantFile>;
  users: Loaded<UsersFile> | null;
  programs: Loaded<ProgramsFile> | null;
  classes: Loaded<ClassesFile> | null;
  courses: Loaded<CourseFile>[];
}

export function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out ? `.${String(s)}` : String(s);
  return out || '(root)';
}

function loadYaml<S extends z.ZodType>(
  root: string,
  rel: string,
  schema: S,
  issues: ImportIssue[],
): Loaded<z.infer<S>> | null {
  let text: string;
  try {
    text = readFileSync(path.join(root, rel), 'utf8');
  } catch (e) {
    issues.push({ file: rel, path: '(root)', message: `cannot read: ${(e as Error).message}` });
    return null;
  }
  const doc = parseDocument(text);
  if (doc.errors.length) {
    for (const e of doc.errors) {
      const pos = e.linePos?.[0];
      issues.push({
        file: rel,
        path: pos ? `(line ${pos.line}, column ${pos.col})` : '(root)',
        message: e.message.split('\n')[0] ?? e.message,
      });
    }
    return null;
  }
  const parsed = schema.safeParse(doc.toJS());
  if (!parsed.success) {
    for (const i of parsed.error.issues)
      issues.push({ file: rel, path: formatPath(i.path), message: i.message });
    return null;
  }
  return { file: rel, data: parsed.data };
}

function loadFolder(root: string, issues: ImportIssue[]): TenantBundle[] {
  const tenantsDir = path.join(root, 'tenants');
  if (!existsSync(tenantsDir) || !statSync(tenantsDir).isDirectory()) {
    issues.push({
      file: 'tenants',
      path: '(root)',
      message: 'the content folder must hold a tenants/ folder',
    });
    return [];
  }
  const bundles: TenantBundle[] = [];
  for (const dir of readdirSync(tenantsDir).sort()) {
    const base = `tenants/${dir}`;
    if (!statSync(path.join(root, base)).isDirectory()) continue;
    if (!existsSync(path.join(root, base, 'tenant.yaml'))) {
      issues.push({ file: `${base}/tenant.yaml`, path: '(root)', message: 'missing tenant.yaml' });
      continue;
    }
    const tenant = loadYaml(root, `${base}/tenant.yaml`, tenantSchema, issues);
    const opt = <S extends z.ZodType>(name: string, schema: S) =>
      existsSync(path.join(root, base, name)) ? loadYaml(root, `${base}/${name}`, schema, issues) : null;
    const users = opt('users.yaml', usersSchema);
    const programs = opt('programs.yaml', programsSchema);
    const classes = opt('classes.yaml', classesSchema);
    const courses: Loaded<CourseFile>[] = [];
    const coursesDir = path.join(root, base, 'courses');
    if (existsSync(coursesDir)) {
      for (const f of readdirSync(coursesDir).sort()) {
        if (!/\.ya?ml$/.test(f)) continue;
        const c = loadYaml(root, `${base}/courses/${f}`, courseSchema, issues);
        if (c) courses.push(c);
      }
    }
    if (tenant) bundles.push({ dir: base, tenant, users, programs, classes, courses });
  }
  if (bundles.length === 0 && issues.length === 0)
    issues.push({ file: 'tenants', path: '(root)', message: 'no tenant found' });
  return bundles;
}

// ---------------------------------------------------------------------------------------------
// Files

const MIME: Record<
  string,
  { type: string; fileType: 'image' | 'pdf' | 'audio' | 'video'; magic?: number[] }
> = {
  png: { type: 'image/png', fileType: 'image', magic: [0x89, 0x50, 0x4e, 0x47] },
  jpg: { type: 'image/jpeg', fileType: 'image', magic: [0xff, 0xd8, 0xff] },
  jpeg: { type: 'image/jpeg', fileType: 'image', magic: [0xff, 0xd8, 0xff] },
  gif: { type: 'image/gif', fileType: 'image', magic: [0x47, 0x49, 0x46, 0x38] },
  pdf: { type: 'application/pdf', fileType: 'pdf', magic: [0x25, 0x50, 0x44, 0x46] },
  mp3: { type: 'audio/mpeg', fileType: 'audio' },
  mp4: { type: 'video/mp4', fileType: 'video' },
  webm: { type: 'video/webm', fileType: 'video' },
  ogv: { type: 'video/ogg', fileType: 'video' },
  ogg: { type: 'video/ogg', fileType: 'video' },
  avi: { type: 'video/x-msvideo', fileType: 'video' },
  mov: { type: 'video/quicktime', fileType: 'video' },
  wmv: { type: 'video/x-ms-wmv', fileType: 'video' },
  flv: { type: 'video/x-flv', fileType: 'video' },
};

interface ResolvedFile {
  rel: string;
  ext: string;
  mime: string;
  fileType: string;
  size: number;
  sha256: string;
  data: Buffer;
}

function tincanHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string, prefix: string): void => {
    for (const f of readdirSync(d).sort()) {
      const full = path.join(d, f);
      if (statSync(full).isDirectory()) walk(full, `${prefix}${f}/`);
      else h.update(`${prefix}${f}\u0000`).update(readFileSync(full));
    }
  };
  walk(dir, '');
  return h.digest('hex').slice(0, 12);
}

// ---------------------------------------------------------------------------------------------
// Validation of one tenant (cross references); returns nothing, pushes issues.

const EXERCISE_ROWS = new Set([
  'multiple-choice',
  'combined-choice',
  'free-answer',
  'drag-n-drop',
  'pick-words',
  'image-cliquable',
]);

interface FileUse {
  file: string;
  path: string;
  rel: string;
  kind: 'file' | 'tincan';
}

function checkDuplicates(
  items: { id: string; file: string; path: string }[],
  what: string,
  issues: ImportIssue[],
): void {
  const seen = new Map<string, string>();
  for (const it of items) {
    const prev = seen.get(it.id);
    if (prev)
      issues.push({
        file: it.file,
        path: it.path,
        message: `duplicate ${what} id "${it.id}" (first in ${prev})`,
      });
    else seen.set(it.id, it.file);
  }
}

function validateTenant(b: TenantBundle, issues: ImportIssue[], uses: FileUse[]): void {
  const t = b.tenant.data;
  const tf = b.tenant.file;
  const push = (file: string, p: string, message: string) => issues.push({ file, path: p, message });
  const useFile = (file: string, p: string, rel: string) => uses.push({ file, path: p, rel, kind: 'file' });

  if (t.assets.logo) useFile(tf, 'assets.logo', t.assets.logo);
  if (t.assets.favicon) useFile(tf, 'assets.favicon', t.assets.favicon);
  for (const [k, v] of Object.entries(t.assets.splashScreens)) useFile(tf, `assets.splashScreens.${k}`, v);
  for (const [k, v] of Object.entries(t.assets.touchIcons)) useFile(tf, `assets.touchIcons.${k}`, v);
  t.categories.forEach(
    (c, i) => c.backgroundImage && useFile(tf, `categories[${i}].backgroundImage`, c.backgroundImage),
  );

  checkDuplicates(
    t.courseTypes.map((x, i) => ({ id: x.id, file: tf, path: `courseTypes[${i}].id` })),
    'course type',
    issues,
  );
  checkDuplicates(
    t.categories.map((x, i) => ({ id: x.id, file: tf, path: `categories[${i}].id` })),
    'category',
    issues,
  );
  checkDuplicates(
    t.competencies.map((x, i) => ({ id: x.id, file: tf, path: `competencies[${i}].id` })),
    'competency',
    issues,
  );
  const types = new Set(t.courseTypes.map((x) => x.id));
  const categories = new Set(t.categories.map((x) => x.id));
  const competencies = new Map(t.competencies.map((x) => [x.id, x]));
  t.competencies.forEach((c, i) => {
    if (c.parent && !competencies.has(c.parent))
      push(tf, `competencies[${i}].parent`, `unknown competency "${c.parent}"`);
    // A cycle would make the tree endless for every reader of course_competencies.
    const seen = new Set<string>([c.id]);
    for (let p = c.parent; p; p = competencies.get(p)?.parent ?? null) {
      if (seen.has(p)) {
        push(tf, `competencies[${i}].parent`, 'competency parents form a cycle');
        break;
      }
      seen.add(p);
    }
  });

  // users.yaml
  const users = new Map<string, UsersFile['users'][number]>();
  if (b.users) {
    const uf = b.users.file;
    const u = b.users.data;
    checkDuplicates(
      u.companies.map((x, i) => ({ id: x.id, file: uf, path: `companies[${i}].id` })),
      'company',
      issues,
    );
    checkDuplicates(
      u.users.map((x, i) => ({ id: x.id, file: uf, path: `users[${i}].id` })),
      'user',
      issues,
    );
    checkDuplicates(
      u.users.map((x, i) => ({ id: x.email.toLowerCase(), file: uf, path: `users[${i}].email` })),
      'user e-mail',
      issues,
    );
    const companies = new Set(u.companies.map((c) => c.id));
    u.users.forEach((usr, i) => {
      users.set(usr.id, usr);
      usr.companies.forEach((c, j) => {
        if (!companies.has(c.company))
          push(uf, `users[${i}].companies[${j}].company`, `unknown company "${c.company}"`);
      });
    });
  }

  // courses
  const terms = new Set<string>();
  const blocks = new Map<string, BlockFile>();
  const courseIds = new Set<string>();
  const blockIds: { id: string; file: string; path: string }[] = [];
  const termIds: { id: string; file: string; path: string }[] = [];
  const courseIdList: { id: string; file: string; path: string }[] = [];
  for (const c of b.courses) {
    courseIdList.push({ id: c.data.id, file: c.file, path: 'id' });
    courseIds.add(c.data.id);
    c.data.terms.forEach((x, i) => {
      termIds.push({ id: x.id, file: c.file, path: `terms[${i}].id` });
      terms.add(x.id);
    });
    c.data.blocks.forEach((x, i) => {
      blockIds.push({ id: x.id, file: c.file, path: `blocks[${i}].id` });
      blocks.set(x.id, x);
    });
  }
  checkDuplicates(courseIdList, 'course', issues);
  checkDuplicates(termIds, 'term', issues);
  checkDuplicates(blockIds, 'block', issues);

  for (const c of b.courses) {
    const cf = c.file;
    const d = c.data;
    if (d.type && !types.has(d.type)) push(cf, 'type', `unknown course type "${d.type}"`);
    if (!categories.has(d.category)) push(cf, 'category', `unknown category "${d.category}"`);
    d.competencies.forEach(
      (x, i) => !competencies.has(x) && push(cf, `competencies[${i}]`, `unknown competency "${x}"`),
    );
    d.blocks.forEach((blk, bi) => {
      const bp = `blocks[${bi}]`;
      if (blk.category && !categories.has(blk.category))
        push(cf, `${bp}.category`, `unknown category "${blk.category}"`);
      if (blk.competency && !competencies.has(blk.competency))
        push(cf, `${bp}.competency`, `unknown competency "${blk.competency}"`);
      blk.terms.forEach((x, i) => !terms.has(x) && push(cf, `${bp}.terms[${i}]`, `unknown term "${x}"`));
      blk.attachments.forEach((f, i) => useFile(cf, `${bp}.attachments[${i}]`, f));
      if (blk.tincan && 'path' in blk.tincan)
        uses.push({ file: cf, path: `${bp}.tincan.path`, rel: blk.tincan.path, kind: 'tincan' });
      if (blk.type === 'tincan' && !blk.tincan)
        push(cf, `${bp}.tincan`, 'a tincan block needs tincan.path or tincan.url');
      if (blk.type !== 'tincan' && blk.tincan)
        push(cf, `${bp}.tincan`, 'only tincan blocks have a tincan module');
      let exercises = 0;
      blk.sections.forEach((s, si) =>
        s.rows.forEach((row, ri) => {
          const rp = `${bp}.sections[${si}].rows[${ri}]`;
          if (EXERCISE_ROWS.has(row.type)) {
            exercises++;
            if (blk.type !== 'exercice') push(cf, `${rp}.type`, `${row.type} rows belong in exercice blocks`);
          }
          validateRow(row, rp, cf, push, (p, rel) => useFile(cf, p, rel));
        }),
      );
      if (blk.type === 'exercice' && exercises === 0)
        push(cf, `${bp}.sections`, 'an exercice block needs at least one exercise row');
    });
    validateTree(d, cf, blocks, push, useFile);
  }

  // programs.yaml
  const programs = new Map<string, ProgramsFile['programs'][number]>();
  if (b.programs) {
    const pf = b.programs.file;
    checkDuplicates(
      b.programs.data.programs.map((x, i) => ({ id: x.id, file: pf, path: `programs[${i}].id` })),
      'program',
      issues,
    );
    b.programs.data.programs.forEach((p, i) => {
      programs.set(p.id, p);
      const seen = new Set<string>();
      p.courses.forEach((c, j) => {
        if (!courseIds.has(c)) push(pf, `programs[${i}].courses[${j}]`, `unknown course "${c}"`);
        if (seen.has(c)) push(pf, `programs[${i}].courses[${j}]`, `course "${c}" is listed twice`);
        seen.add(c);
      });
      // Progression targets must be other courses of the same program.
      for (const entry of p.progression) {
        const at = `programs[${i}].courses[${p.courses.indexOf(entry.course)}]`;
        const check = (target: string, path: string) => {
          if (!seen.has(target)) push(pf, path, `course "${target}" is not in this program`);
          else if (target === entry.course) push(pf, path, 'a course cannot open itself');
        };
        entry.unlocks?.forEach((u, k) => check(u, `${at}.unlocks[${k}]`));
        entry.question?.choices.forEach((ch, k) => check(ch.target, `${at}.question.choices[${k}].target`));
      }
    });
  }

  // classes.yaml
  if (b.classes) {
    const cf = b.classes.file;
    const companyIds = new Set(b.users?.data.companies.map((c) => c.id) ?? []);
    checkDuplicates(
      b.classes.data.classes.map((x, i) => ({ id: x.id, file: cf, path: `classes[${i}].id` })),
      'class',
      issues,
    );
    const classIds = new Set(b.classes.data.classes.map((c) => c.id));
    checkDuplicates(
      b.classes.data.invitations.map((x, i) => ({ id: x.code.toUpperCase(), file: cf, path: `invitations[${i}].code` })),
      'invitation code',
      issues,
    );
    b.classes.data.invitations.forEach((inv, i) =>
      inv.classes.forEach((c, j) => {
        if (!classIds.has(c)) push(cf, `invitations[${i}].classes[${j}]`, `unknown class "${c}"`);
      }),
    );
    b.classes.data.classes.forEach((cl, i) => {
      const cp = `classes[${i}]`;
      if (cl.company && !companyIds.has(cl.company))
        push(cf, `${cp}.company`, `unknown company "${cl.company}"`);
      const progs = new Set<string>();
      cl.programs.forEach((p, j) => {
        if (!programs.has(p.program))
          push(cf, `${cp}.programs[${j}].program`, `unknown program "${p.program}"`);
        if (progs.has(p.program))
          push(cf, `${cp}.programs[${j}].program`, `program "${p.program}" is listed twice`);
        progs.add(p.program);
      });
      const seen = new Set<string>();
      cl.users.forEach((u, j) => {
        const up = `${cp}.users[${j}]`;
        if (!users.has(u.user)) push(cf, `${up}.user`, `unknown user "${u.user}"`);
        if (seen.has(`${u.user}/${u.role}`)) push(cf, up, `user "${u.user}" is listed twice as ${u.role}`);
        seen.add(`${u.user}/${u.role}`);
        if (u.history.length && u.role !== 'STUDENT')
          push(cf, `${up}.history`, 'history is for STUDENT enrolments only');
        u.history.forEach((h, k) => {
          const hp = `${up}.history[${k}]`;
          if (h.program && !progs.has(h.program))
            push(cf, `${hp}.program`, `program "${h.program}" is not in this class`);
          const owner =
            h.program ??
            cl.programs.find((p) => programs.get(p.program)?.courses.includes(h.course))?.program;
          if (!owner || !programs.get(owner)?.courses.includes(h.course)) {
            push(cf, `${hp}.course`, `course "${h.course}" is in none of this class's programs`);
            return;
          }
          const course = b.courses.find((c) => c.data.id === h.course)?.data;
          const pages = course ? countPages(course.tree.children) : 0;
          if (h.pagesDone > pages) push(cf, `${hp}.pagesDone`, `the course has ${pages} pages`);
          if (h.score.actual > h.score.max) push(cf, `${hp}.score`, 'actual is above max');
        });
      });
    });
  }
}

function countPages(nodes: NodeFile[]): number {
  return nodes.reduce((n, c) => n + (c.block ? 1 : countPages(c.children)), 0);
}

type Push = (file: string, p: string, message: string) => void;

function validateRow(
  row: BlockFile['sections'][number]['rows'][number],
  rp: string,
  cf: string,
  push: Push,
  useFile: (p: string, rel: string) => void,
): void {
  const inRange = (idx: number, n: number, p: string) => {
    if (idx >= n) push(cf, p, `index ${idx} is out of range (${n} choices, counted from 0)`);
  };
  if ('choices' in row) row.choices.forEach((c, i) => c.file && useFile(`${rp}.choices[${i}].file`, c.file));
  if (row.settings.audioFile) useFile(`${rp}.settings.audioFile`, row.settings.audioFile);
  switch (row.type) {
    case 'multiple-choice':
      row.expected.forEach((e, i) => inRange(e, row.choices.length, `${rp}.expected[${i}]`));
      if (new Set(row.expected).size !== row.expected.length)
        push(cf, `${rp}.expected`, 'an index is repeated');
      break;
    case 'combined-choice':
      inRange(row.expected, row.choices.length, `${rp}.expected`);
      break;
    case 'drag-n-drop': {
      if (row.expected.length !== row.targets.length)
        push(
          cf,
          `${rp}.expected`,
          `expected needs one list per target (${row.targets.length}), got ${row.expected.length}`,
        );
      const placed = new Set<number>();
      row.expected.forEach((l, t) =>
        l.forEach((e, i) => {
          inRange(e, row.choices.length, `${rp}.expected[${t}][${i}]`);
          if (placed.has(e)) push(cf, `${rp}.expected[${t}][${i}]`, `choice ${e} is expected in two targets`);
          placed.add(e);
        }),
      );
      if (placed.size === 0) push(cf, `${rp}.expected`, 'no choice is expected in any target');
      break;
    }
    case 'pick-words':
      if (parsePickWords(row.text).positions.length === 0)
        push(cf, `${rp}.text`, 'mark the words to pick with [[double brackets]]');
      break;
    case 'image-cliquable':
      useFile(`${rp}.image`, row.image);
      row.expected.forEach((e, i) => inRange(e, row.zones.length, `${rp}.expected[${i}]`));
      if (new Set(row.expected).size !== row.expected.length)
        push(cf, `${rp}.expected`, 'an index is repeated');
      row.zones.forEach((z, i) => {
        const pts: [number, number][] =
          z.shape === 'circle'
            ? [[z.cx, z.cy]]
            : z.shape === 'rectangle'
              ? [
                  [z.x, z.y],
                  [z.x + z.width, z.y + z.height],
                ]
              : z.points;
        if (pts.some(([x, y]) => x < 0 || y < 0 || x > CLICKABLE_IMAGE_WIDTH || y > row.viewBox.height))
          push(
            cf,
            `${rp}.zones[${i}]`,
            `zone outside the viewBox 0 0 ${CLICKABLE_IMAGE_WIDTH} ${row.viewBox.height}`,
          );
      });
      break;
    case 'media-internal':
      useFile(`${rp}.file`, row.file);
      break;
    case 'media-tincan':
      break;
    case 'medias-by-mail':
      row.files.forEach((f, i) => useFile(`${rp}.files[${i}]`, f));
      break;
    case 'widgets':
      row.widgets.forEach((w, i) => 'file' in w && useFile(`${rp}.widgets[${i}].file`, w.file));
      break;
    default:
      break;
  }
}

function validateTree(
  d: CourseFile,
  cf: string,
  blocks: Map<string, BlockFile>,
  push: Push,
  useFile: (file: string, p: string, rel: string) => void,
): void {
  const ids = new Map<string, string>();
  const walk = (n: NodeFile, p: string, depth: number): void => {
    if (ids.has(n.id)) push(cf, `${p}.id`, `duplicate node id "${n.id}" (first at ${ids.get(n.id)})`);
    else ids.set(n.id, p);
    n.attachments.forEach((f, i) => useFile(cf, `${p}.attachments[${i}]`, f));
    const type = nodeType(n, depth);
    if (depth === 1 && type !== 'container')
      push(cf, `${p}.type`, 'the root holds containers (sections) only');
    if (depth > 1 && type === 'container') push(cf, `${p}.type`, 'a container belongs right under the root');
    if (depth > 2 && type === 'multiblock') push(cf, `${p}.type`, 'a multiblock belongs in a container');
    if (type === 'block') {
      if (!n.block) push(cf, `${p}.block`, 'a block node needs a block id');
      else if (!blocks.has(n.block)) push(cf, `${p}.block`, `unknown block "${n.block}"`);
      if (n.children.length) push(cf, `${p}.children`, 'a block node has no children');
    } else {
      if (n.block) push(cf, `${p}.block`, `a ${type} node does not hold a block`);
      if (n.children.length === 0) push(cf, `${p}.children`, `a ${type} node needs children`);
    }
    n.children.forEach((c, i) => walk(c, `${p}.children[${i}]`, depth + 1));
  };
  d.tree.children.forEach((c, i) => walk(c, `tree.children[${i}]`, 1));
}

function nodeType(n: NodeFile, depth: number): 'container' | 'multiblock' | 'block' {
  return n.type ?? (n.block ? 'block' : depth === 1 ? 'container' : 'multiblock');
}

// ---------------------------------------------------------------------------------------------
// Import

export async function importFolder(
  db: Db,
  folder: string,
  opts: { filesDir: string; now?: Date },
): Promise<ImportReport> {
  const root = path.resolve(folder);
  const now = opts.now ?? new Date();
  const issues: ImportIssue[] = [];
  const bundles = loadFolder(root, issues);

  // Tenant-wide uniqueness: aliases, host names, one generic tenant.
  checkDuplicates(
    bundles.map((b) => ({ id: b.tenant.data.alias, file: b.tenant.file, path: 'alias' })),
    'tenant alias',
    issues,
  );
  checkDuplicates(
    bundles.flatMap((b) =>
      b.tenant.data.hostnames.map((h, i) => ({
        id: h.toLowerCase(),
        file: b.tenant.file,
        path: `hostnames[${i}]`,
      })),
    ),
    'host name',
    issues,
  );
  const generics = bundles.filter((b) => b.tenant.data.isGeneric);
  for (const g of generics.slice(1))
    issues.push({ file: g.tenant.file, path: 'isGeneric', message: 'only one tenant may be generic' });

  const usesByTenant = new Map<TenantBundle, FileUse[]>();
  for (const b of bundles) {
    const uses: FileUse[] = [];
    validateTenant(b, issues, uses);
    usesByTenant.set(b, uses);
  }

  // Every referenced file must exist, be an allowed type and really be what its name says.
  const resolved = new Map<string, ResolvedFile>();
  const tincanDirs = new Map<string, string>();
  for (const uses of usesByTenant.values()) {
    for (const u of uses) {
      const rel = path.posix.normalize(u.rel.replace(/\\/g, '/'));
      const full = path.join(root, rel);
      if (u.kind === 'tincan') {
        if (!existsSync(path.join(full, 'index.html')))
          issues.push({ file: u.file, path: u.path, message: `no index.html in folder "${rel}"` });
        else if (!tincanDirs.has(rel)) tincanDirs.set(rel, tincanHash(full));
        continue;
      }
      if (resolved.has(rel)) continue;
      if (!existsSync(full) || !statSync(full).isFile()) {
        issues.push({ file: u.file, path: u.path, message: `file not found: ${rel}` });
        continue;
      }
      const ext = path.extname(rel).slice(1).toLowerCase();
      const mime = MIME[ext];
      if (!mime) {
        issues.push({
          file: u.file,
          path: u.path,
          message: `unsupported file type .${ext} (jpeg, png, gif, pdf, mp3, mp4, webm, ogg, avi, mov, wmv, flv)`,
        });
        continue;
      }
      const data = readFileSync(full);
      if (mime.magic && !mime.magic.every((byte, i) => data[i] === byte)) {
        issues.push({ file: u.file, path: u.path, message: `${rel} is not a real ${ext} file` });
        continue;
      }
      resolved.set(rel, {
        rel,
        ext,
        mime: mime.type,
        fileType: mime.fileType,
        size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
        data,
      });
    }
  }

  if (issues.length) return { ok: false, errors: issues, changes: {} };

  // Files first (content-addressed, so leftovers from a failed transaction are harmless).
  const contextIdOf = (alias: string) => stableId('context', alias);
  for (const [b, uses] of usesByTenant) {
    const ctx = contextIdOf(b.tenant.data.alias);
    for (const u of uses) {
      const rel = path.posix.normalize(u.rel.replace(/\\/g, '/'));
      if (u.kind === 'tincan') {
        const target = path.join(opts.filesDir, 'tincan', ctx, tincanFolderName(rel, tincanDirs.get(rel)!));
        if (!existsSync(target)) cpSync(path.join(root, rel), target, { recursive: true });
        continue;
      }
      const f = resolved.get(rel)!;
      const target = path.join(opts.filesDir, ctx, `${f.sha256}.${f.ext}`);
      if (!existsSync(target)) {
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, f.data);
      }
    }
  }

  try {
    const changes = await db.transaction().execute(async (trx) => {
      const w = new Writer(trx, now.toISOString());
      for (const b of bundles)
        await writeTenant(trx, w, b, { root, now, resolved, tincanDirs, usesByTenant });
      return w.changes;
    });
    return { ok: true, errors: [], changes };
  } catch (e) {
    return {
      ok: false,
      errors: [{ file: '(database)', path: '(root)', message: (e as Error).message }],
      changes: {},
    };
  }
}

function tincanFolderName(rel: string, hash: string): string {
  return `${path.posix.basename(rel)}-${hash}`;
}

interface WriteCtx {
  root: string;
  now: Date;
  resolved: Map<string, ResolvedFile>;
  tincanDirs: Map<string, string>;
  usesByTenant: Map<TenantBundle, FileUse[]>;
}

const json = (v: unknown) => JSON.stringify(v);

/**
 * `program_courses.settings` (docs/content-format.md "Progression"): course slugs become course
 * ids; only the keys given are written, so a plain entry stays `{}`.
 */
function programCourseSettings(entry: ProgramCourseFile | undefined, courseId: (slug: string) => string): string {
  if (!entry) return '{}';
  return json({
    ...(entry.unlocks ? { unlocks: entry.unlocks.map(courseId) } : {}),
    ...(entry.question
      ? { question: { label: entry.question.label, choices: entry.question.choices.map((c) => ({ response: c.response, target: courseId(c.target) })) } }
      : {}),
    ...(entry.endOfProgram !== undefined ? { endOfProgram: entry.endOfProgram } : {}),
  });
}

async function writeTenant(db: Db, w: Writer, b: TenantBundle, ctx: WriteCtx): Promise<void> {
  const t = b.tenant.data;
  const alias = t.alias;
  const contextId = stableId('context', alias);
  const id = (kind: string, ...parts: string[]) => stableId(alias, kind, ...parts);
  const date = (v: string | null | undefined) => (v == null ? null : resolveDate(v, ctx.now));

  const fileId = (rel: string) => id('file', path.posix.normalize(rel));
  const fileUrl = (rel: string) => `/api/files/${fileId(rel)}/download`;
  const refs: BlockRefs = {
    file(rel: string): FileRef {
      const f = ctx.resolved.get(path.posix.normalize(rel))!;
      return {
        id: fileId(rel),
        name: path.posix.basename(f.rel),
        type: f.mime,
        fileType: f.fileType,
        url: fileUrl(rel),
      };
    },
    tincanUrl(ref) {
      if ('url' in ref) return ref.url;
      const rel = path.posix.normalize(ref.path);
      return `/api/tincan/${contextId}/${tincanFolderName(rel, ctx.tincanDirs.get(rel)!)}/index.html`;
    },
  };

  const legal = (l: { content: string; version: string; date: string } | null) =>
    l ? { ...l, content: sanitizeContentHtml(l.content) } : null;
  await w.upsert(
    'contexts',
    { id: contextId },
    {
      alias,
      name: t.name,
      description: t.description,
      hosts: json(t.hosts),
      assets: json({
        logo: t.assets.logo ? fileUrl(t.assets.logo) : null,
        favicon: t.assets.favicon ? fileUrl(t.assets.favicon) : null,
        colors: t.assets.colors,
        splashScreens: Object.fromEntries(
          Object.entries(t.assets.splashScreens).map(([k, v]) => [k, fileUrl(v)]),
        ),
        touchIcons: Object.fromEntries(Object.entries(t.assets.touchIcons).map(([k, v]) => [k, fileUrl(v)])),
      }),
      metas: json(t.metas),
      settings: json({
        ...t.settings,
        legal: { cgu: legal(t.settings.legal.cgu), rgpd: legal(t.settings.legal.rgpd) },
      }),
      isGeneric: t.isGeneric ? 1 : 0,
    },
  );
  for (const h of t.hostnames)
    await w.upsert('contextHostnames', { hostname: h.toLowerCase() }, { contextId });
  await w.prune(
    'contextHostnames',
    'contextId',
    contextId,
    'hostname',
    t.hostnames.map((h) => h.toLowerCase()),
  );

  // Files of this tenant, in one library per tenant.
  const libraryId = id('library', 'content');
  const uses = ctx.usesByTenant.get(b) ?? [];
  if (uses.some((u) => u.kind === 'file'))
    await w.upsert('libraries', { id: libraryId }, { contextId, ownerId: null, ownerType: 'CONTEXT' });
  const done = new Set<string>();
  for (const u of uses) {
    if (u.kind !== 'file') continue;
    const rel = path.posix.normalize(u.rel);
    if (done.has(rel)) continue;
    done.add(rel);
    const f = ctx.resolved.get(rel)!;
    await w.upsert(
      'files',
      { id: fileId(rel) },
      {
        contextId,
        libraryId,
        ownerId: null,
        name: path.posix.basename(rel),
        type: f.mime,
        fileType: f.fileType,
        icon: null,
        size: f.size,
        storagePath: `${contextId}/${f.sha256}.${f.ext}`,
        sha256: f.sha256,
      },
    );
  }

  // Users, system roles, companies.
  const userId = (uid: string) => id('user', uid);
  if (b.users) {
    const u = b.users.data;
    const cgu = t.settings.legal.cgu;
    for (const c of u.companies)
      await w.upsert('companies', { id: id('company', c.id) }, { contextId, name: c.name, avatarId: null });
    for (const usr of u.users) {
      const uid = userId(usr.id);
      const existing = await db
        .selectFrom('users')
        .select('passwordHash')
        .where('id', '=', uid)
        .executeTakeFirst();
      // Keep the stored hash when it still matches: a fresh salt would rewrite the row each time.
      let passwordHash: string | null = existing?.passwordHash ?? null;
      if (usr.password === undefined) passwordHash = null;
      else if (!(await verifyPassword(usr.password, passwordHash)))
        passwordHash = await hashPassword(usr.password);
      const accepted = usr.cguAcceptedVersion;
      await w.upsert(
        'users',
        { id: uid },
        {
          contextId,
          email: usr.email.toLowerCase(),
          username: usr.username,
          firstname: usr.firstname,
          lastname: usr.lastname,
          birthday: usr.birthday,
          preferredLocale: usr.preferredLocale,
          passwordHash,
          legal: json({
            cguAcceptedVersion: accepted,
            // The acceptance instant is the terms' publication day: stable across imports.
            cguAcceptedAt: accepted
              ? cgu?.version === accepted
                ? `${cgu.date}T00:00:00.000Z`
                : resolveDate('now', ctx.now)
              : null,
          }),
        },
      );
      for (const r of usr.roles) {
        // Roles are platform-wide: reuse one the API may already have created under another id.
        const found = await db.selectFrom('roles').select('id').where('name', '=', r).executeTakeFirst();
        const role = { id: found?.id ?? stableId('role', r) };
        await w.upsert('roles', role, { name: r });
        await w.upsert(
          'roleUsers',
          { id: id('role-user', usr.id, r) },
          { roleId: role.id, principalType: 'USER', principalId: uid, scopeId: contextId },
        );
      }
      for (const c of usr.companies)
        await w.upsert(
          'companyUsers',
          { id: id('company-user', c.company, usr.id, c.role) },
          { companyId: id('company', c.company), userId: uid, role: c.role },
        );
    }
  }

  // Course types, categories, competencies (parents first: foreign keys).
  for (const ct of t.courseTypes)
    await w.upsert(
      'courseTypes',
      { id: id('course-type', ct.id) },
      { contextId, title: ct.title, description: ct.description, settings: json(ct.settings) },
    );
  for (const c of t.categories)
    await w.upsert(
      'courseCategories',
      { id: id('category', c.id) },
      {
        contextId,
        title: c.title,
        icon: c.icon,
        backgroundImageId: c.backgroundImage ? fileId(c.backgroundImage) : null,
      },
    );
  const depth = (cid: string): number => {
    const c = t.competencies.find((x) => x.id === cid);
    return c?.parent ? 1 + depth(c.parent) : 0;
  };
  for (const c of [...t.competencies].sort((a, z) => depth(a.id) - depth(z.id)))
    await w.upsert(
      'courseCompetencies',
      { id: id('competency', c.id) },
      {
        contextId,
        parentId: c.parent ? id('competency', c.parent) : null,
        isGeneric: c.isGeneric ? 1 : 0,
        title: c.title,
        icon: c.icon,
        order: c.order,
      },
    );

  // Terms and blocks of every course first: nodes of one course may use blocks of another.
  for (const c of b.courses) {
    for (const term of c.data.terms)
      await w.upsert(
        'courseTerms',
        { id: id('term', term.id) },
        {
          contextId,
          title: term.title,
          words: json(term.words),
          definition: sanitizeContentHtml(term.definition),
        },
      );
  }
  for (const c of b.courses) {
    for (const blk of c.data.blocks) {
      const built = buildBlock(blk, refs);
      const blockId = id('block', blk.id);
      await w.upsert(
        'courseBlocks',
        { id: blockId },
        {
          contextId,
          title: blk.title,
          type: blk.type,
          categoryId: id('category', blk.category ?? c.data.category),
          competencyId: blk.competency ? id('competency', blk.competency) : null,
          attachmentIds: json(blk.attachments.map(fileId)),
          settings: json(built.settings),
          content: json(built.content),
          solution: json(built.solution),
        },
      );
      for (const term of blk.terms)
        await w.upsert('courseBlockTerms', { blockId, termId: id('term', term) }, {});
      await w.prune(
        'courseBlockTerms',
        'blockId',
        blockId,
        'termId',
        blk.terms.map((x) => id('term', x)),
      );
    }
  }

  for (const c of b.courses) {
    const d = c.data;
    const courseId = id('course', d.id);
    await w.upsert(
      'courses',
      { id: courseId },
      {
        contextId,
        title: d.title,
        description: d.description,
        reference: d.reference,
        state: d.state,
        categoryId: id('category', d.category),
        typeId: d.type ? id('course-type', d.type) : null,
        competencyIds: json(d.competencies.map((x) => id('competency', x))),
        video: d.video,
        settings: json(d.settings),
      },
    );
    const nodeId = (nid: string) => id('node', d.id, nid);
    const rootId = nodeId('root');
    const keep = [rootId];
    await w.upsert(
      'courseNodes',
      { id: rootId },
      {
        courseId,
        parentId: null,
        type: 'root',
        blockId: null,
        order: 0,
        title: d.tree.title ?? d.title,
        settings: '{}',
        tools: '{}',
        conditions: '[]',
        attachmentIds: '[]',
      },
    );
    const writeNode = async (n: NodeFile, parentId: string, order: number, depth: number): Promise<void> => {
      const nid = nodeId(n.id);
      keep.push(nid);
      const type = nodeType(n, depth);
      const blk = n.block ? b.courses.flatMap((x) => x.data.blocks).find((x) => x.id === n.block) : undefined;
      await w.upsert(
        'courseNodes',
        { id: nid },
        {
          courseId,
          parentId,
          type,
          blockId: n.block ? id('block', n.block) : null,
          order,
          title: n.title ?? blk?.title ?? null,
          settings: json(n.settings),
          tools: json(n.tools),
          conditions: json(n.conditions),
          attachmentIds: json(n.attachments.map(fileId)),
        },
      );
      for (const [i, child] of n.children.entries()) await writeNode(child, nid, i, depth + 1);
    };
    for (const [i, child] of d.tree.children.entries()) await writeNode(child, rootId, i, 1);
    // Nodes removed from the file go, unless a learner's page still points at them.
    const stale = (await db.selectFrom('courseNodes').select('id').where('courseId', '=', courseId).execute())
      .map((r) => r.id)
      .filter((x) => !keep.includes(x));
    if (stale.length) {
      const used = await db
        .selectFrom('lessonPages')
        .select('nodeId')
        .where('nodeId', 'in', stale)
        .executeTakeFirst();
      if (!used) await w.prune('courseNodes', 'courseId', courseId, 'id', keep);
    }
  }

  // Programs.
  const programs = b.programs?.data.programs ?? [];
  for (const p of programs) {
    const programId = id('program', p.id);
    await w.upsert(
      'programs',
      { id: programId },
      {
        contextId,
        name: p.name,
        description: p.description,
        icon: p.icon,
        public: p.public ? 1 : 0,
        settings: json(p.settings),
        tags: json(p.tags),
        state: p.state,
      },
    );
    for (const [i, c] of p.courses.entries())
      await w.upsert(
        'programCourses',
        { id: id('program-course', p.id, c) },
        { programId, courseId: id('course', c), order: i, settings: programCourseSettings(p.progression.find((e) => e.course === c), (x) => id('course', x)) },
      );
  }

  // Classes, their programs and users, then lessons for every student.
  const classes = b.classes?.data.classes ?? [];
  for (const cl of classes) {
    const classId = id('class', cl.id);
    await w.upsert(
      'classes',
      { id: classId },
      {
        contextId,
        companyId: cl.company ? id('company', cl.company) : null,
        name: cl.name,
        startAt: date(cl.startAt),
        expireAt: date(cl.expireAt),
        settings: json(cl.settings),
      },
    );
    for (const [i, p] of cl.programs.entries())
      await w.upsert(
        'classPrograms',
        { id: id('class-program', cl.id, p.program) },
        {
          classId,
          programId: id('program', p.program),
          order: i,
          startAt: date(p.startAt),
          expireAt: date(p.expireAt),
          openingBoundaries: json({ from: date(p.openingBoundaries.from), to: date(p.openingBoundaries.to) }),
          settings: json(p.settings),
        },
      );
    for (const u of cl.users)
      await w.upsert(
        'classUsers',
        { id: id('class-user', cl.id, u.user, u.role) },
        { classId, userId: userId(u.user), role: u.role },
      );
  }
  // Codes are global keys: a code names one tenant. Its use count is the server's, never reset here.
  for (const inv of b.classes?.data.invitations ?? []) {
    await w.upsert(
      'invitationCodes',
      { code: inv.code },
      {
        contextId,
        classIds: json(inv.classes.map((c) => id('class', c))),
        maxUses: inv.maxUses,
        expireAt: date(inv.expireAt),
      },
    );
  }
  for (const cl of classes) {
    const r = await ensureLessons(db, { classId: id('class', cl.id) }, ctx.now);
    w.count('lessons', 'created', r.created);
    w.count('lessons', 'unchanged', r.unchanged);
  }

  // DEMO ONLY: lesson history, so the demo learner's home shows real progress.
  for (const cl of classes) {
    for (const u of cl.users) {
      for (const h of u.history) {
        const program =
          h.program ??
          cl.programs.find((p) => programs.find((x) => x.id === p.program)?.courses.includes(h.course))!
            .program;
        const classProgramId = id('class-program', cl.id, program);
        const lessonId = stableId(userId(u.user), classProgramId, id('program-course', program, h.course));
        const pages = await coursePages(db, id('course', h.course));
        const isDone = h.state === 'DONE';
        const ongoing = !isDone && h.pagesDone < pages.length ? pages[h.pagesDone] : undefined;
        const startedAt = date(h.startedAt ?? cl.startAt ?? 'now');
        await w.upsert(
          'lessons',
          { id: lessonId },
          {
            state: h.state,
            progress: isDone ? 'COMPLETED' : h.pagesDone > 0 || ongoing ? 'ONGOING' : null,
            currentNodeId: ongoing?.nodeId ?? null,
            startedAt,
            endedAt: isDone ? startedAt : null,
            timeSpent: h.timeSpent,
            scoring: json({ global: h.score }),
          },
          'lessons (demo history)',
        );
        const rows = pages.slice(0, h.pagesDone).map((p) => ({ ...p, progress: 'COMPLETED' }));
        if (ongoing) rows.push({ ...ongoing, progress: 'ONGOING' });
        for (const [pos, p] of rows.entries())
          await w.upsert(
            'lessonPages',
            { id: stableId(lessonId, p.nodeId, '1') },
            {
              lessonId,
              nodeId: p.nodeId,
              sectionId: p.sectionId,
              attempt: 1,
              position: pos,
              state: 'ACTIVE',
              progress: p.progress,
              openedAt: startedAt,
              answeredAt: p.progress === 'COMPLETED' ? startedAt : null,
            },
            'lessonPages (demo history)',
          );
      }
    }
  }
}
