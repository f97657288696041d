/** Cross-file checks of programs.yaml and classes.yaml (programs, progression, classes, history, invitations). */
import type { ProgramsFile, UsersFile } from '../format';
import { resolveDate } from '../format';
import type { ImportIssue } from '../issues';
import { checkDuplicates } from '../issues';
import type { TenantBundle } from '../load';
import { countPages } from './courses';

export type ProgramIndex = Map<string, ProgramsFile['programs'][number]>;

export function validatePrograms(
  b: TenantBundle,
  courseIds: Set<string>,
  issues: ImportIssue[],
): ProgramIndex {
  const push = (file: string, p: string, message: string) => issues.push({ file, path: p, message });
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
  return programs;
}

export function validateClasses(
  b: TenantBundle,
  programs: ProgramIndex,
  users: Map<string, UsersFile['users'][number]>,
  issues: ImportIssue[],
  // Only orders dates (activity from/to): any day gives the same answer for relative pairs.
  now: Date = new Date(),
): void {
  const push = (file: string, p: string, message: string) => issues.push({ file, path: p, message });
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
      b.classes.data.invitations.map((x, i) => ({
        id: x.code.toUpperCase(),
        file: cf,
        path: `invitations[${i}].code`,
      })),
      'invitation code',
      issues,
    );
    b.classes.data.invitations.forEach((inv, i) =>
      inv.classes.forEach((c, j) => {
        if (!classIds.has(c)) push(cf, `invitations[${i}].classes[${j}]`, `unknown class "${c}"`);
      }),
    );
    const refs: { id: string; file: string; path: string }[] = [];
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
        const courses = programs.get(p.program)?.courses ?? [];
        const steps = new Set<string>();
        p.steps.forEach((step, k) => {
          const at = `${cp}.programs[${j}].steps[${k}]`;
          if (!courses.includes(step)) push(cf, at, `course "${step}" is not in program "${p.program}"`);
          if (steps.has(step)) push(cf, at, `course "${step}" is a step twice`);
          steps.add(step);
        });
      });
      const seen = new Set<string>();
      cl.users.forEach((u, j) => {
        const up = `${cp}.users[${j}]`;
        if (!users.has(u.user)) push(cf, `${up}.user`, `unknown user "${u.user}"`);
        if (seen.has(`${u.user}/${u.role}`)) push(cf, up, `user "${u.user}" is listed twice as ${u.role}`);
        seen.add(`${u.user}/${u.role}`);
        if (u.history.length && u.role !== 'STUDENT')
          push(cf, `${up}.history`, 'history is for STUDENT enrolments only');
        const lessons = new Set<string>();
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
          // Two entries would write the same lesson, the second over the first's pages.
          if (lessons.has(`${owner}/${h.course}`))
            push(
              cf,
              `${hp}.course`,
              `course "${h.course}" of program "${owner}" already has a history entry`,
            );
          lessons.add(`${owner}/${h.course}`);
          const course = b.courses.find((c) => c.data.id === h.course)?.data;
          const pages = course ? countPages(course.tree.children) : 0;
          if (h.pagesDone > pages) push(cf, `${hp}.pagesDone`, `the course has ${pages} pages`);
          if (h.score && h.score.actual > h.score.max) push(cf, `${hp}.score`, 'actual is above max');
          if (h.activity && resolveDate(h.activity.from, now) > resolveDate(h.activity.to, now))
            push(cf, `${hp}.activity`, 'from is after to');
          if (h.certificationRef !== undefined) {
            refs.push({ id: h.certificationRef, file: cf, path: `${hp}.certificationRef` });
            const passing = course?.certification?.passingScore;
            const ratio = h.ratio ?? (h.score && h.score.max > 0 ? h.score.actual / h.score.max : 0);
            if (passing === undefined)
              push(
                cf,
                `${hp}.certificationRef`,
                `course "${h.course}" is not certifying (no certification field)`,
              );
            else if (h.state !== 'DONE')
              push(cf, `${hp}.certificationRef`, 'only an ended lesson (state DONE) has a certificate');
            else if (ratio < passing)
              push(
                cf,
                `${hp}.certificationRef`,
                `the lesson's score is below the course's passing score (${passing})`,
              );
          }
        });
        if (u.logbook.length && u.role !== 'STUDENT')
          push(cf, `${up}.logbook`, 'log book notes are listed under the STUDENT they are about');
        u.logbook.forEach((n, k) => {
          if (n.author === undefined || n.author === u.user) return;
          if (!cl.users.some((x) => x.user === n.author && x.role === 'TEACHER'))
            push(
              cf,
              `${up}.logbook[${k}].author`,
              `"${n.author}" is neither this student nor a TEACHER of this class`,
            );
        });
      });
    });
    checkDuplicates(refs, 'certification reference', issues);
  }
}
