/** Reading a content folder: every YAML file parsed and checked against its schema. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import type { ClassesFile, CourseFile, ProgramsFile, TenantFile, UsersFile } from './format';
import { classesSchema, courseSchema, programsSchema, tenantSchema, usersSchema } from './format';
import type { ImportIssue } from './issues';

export interface Loaded<T> {
  file: string; // relative to the content folder, with forward slashes
  data: T;
}
export interface TenantBundle {
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

export function loadFolder(root: string, issues: ImportIssue[]): TenantBundle[] {
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
