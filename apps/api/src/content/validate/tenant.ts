/**
 * Cross-file checks of one tenant (after every file passed its schema): tenant.yaml's catalogue
 * and users.yaml here, then courses, programs and classes in their own modules. Pushes issues;
 * collects the files the tenant uses.
 */
import type { UsersFile } from '../format';
import type { FileUse } from '../files';
import type { ImportIssue } from '../issues';
import { checkDuplicates } from '../issues';
import type { TenantBundle } from '../load';
import { validateClasses, validatePrograms } from './classes';
import { validateCourses } from './courses';

export function validateTenant(b: TenantBundle, issues: ImportIssue[], uses: FileUse[]): void {
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

  const courseIds = validateCourses(b, { types, categories, competencies }, issues, uses);
  const programs = validatePrograms(b, courseIds, issues);
  validateClasses(b, programs, users, issues);
}
