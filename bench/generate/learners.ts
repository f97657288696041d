import { random } from './random';
import type { Template, TemplateClass } from './template';
import { emptyBatch } from './tables';
import type { Batch, Row } from './tables';

const DAY = 86_400_000;
/** Learners per cohort: a cohort shares its classes and its teacher. */
export const COHORT = 25;

export interface GenerateOptions {
  /** Now, in ms: histories lie in the year before it. */
  now: number;
  /**
   * No history: every lesson as enrolment leaves it (the first course of each program AVAILABLE,
   * the others LOCKED, no page), for learners who will play (the load bench).
   */
  fresh?: boolean;
}

/** Generated ids: `gen-000042` is learner 42 (e-mail `gen-000042@bench.test`). */
export function learnerId(i: number): string {
  return `gen-${String(i).padStart(6, '0')}`;
}

export function learnerEmail(i: number): string {
  return `${learnerId(i)}@bench.test`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The classes of cohort `c` (one or two copies of the tenant's classes' programs, with a teacher),
 * written when its first learner is. About one class in five has expired (history the home does
 * not list); the others are open.
 */
function cohortClasses(t: Template, c: number, opts: GenerateOptions, out: Batch): string[][] {
  const rnd = random(1_000_000 + c);
  const count = opts.fresh ? 1 : 1 + (rnd() < 0.5 ? 1 : 0);
  const ids: string[][] = [];
  const teacher = `gen-t${String(c).padStart(5, '0')}`;
  const created = opts.now - (30 + Math.floor(rnd() * 370)) * DAY;
  out.users.push([
    teacher,
    t.contextId,
    `${teacher}@bench.test`,
    'Gen',
    teacher,
    t.legal,
    '{}',
    t.passwordHash,
    0,
    0,
    iso(created),
    iso(created),
  ]);
  for (let k = 0; k < count; k++) {
    const classId = `gen-c${String(c).padStart(5, '0')}-${k}`;
    const expired = !opts.fresh && rnd() < 0.2;
    const start = created + k * 20 * DAY;
    const expire = expired
      ? opts.now - Math.floor(1 + rnd() * 60) * DAY
      : opts.now + Math.floor(30 + rnd() * 300) * DAY;
    out.classes.push([
      classId,
      t.contextId,
      `Cohorte ${c} — ${k + 1}`,
      iso(start),
      iso(expire),
      iso(created),
      iso(created),
    ]);
    out.class_users.push([`${classId}-${teacher}`, classId, teacher, 'TEACHER', iso(created)]);
    const template = t.classes[(c * 7 + k * 3) % t.classes.length] as TemplateClass;
    ids.push(
      template.programs.map((p, order) => {
        const id = `${classId}-p${order}`;
        out.class_programs.push([id, classId, p.programId, order]);
        return id;
      }),
    );
  }
  return ids;
}

/**
 * Learners `from`..`to`-1 of the tenant of `t`, appended to `out`: each in their cohort's classes,
 * one lesson per class program and program course (as enrolment creates them). With history, the
 * learner has gone some way through each program: earlier courses DONE with every page answered
 * over the last year (time, scores), the current one partly answered (its last page possibly still
 * open), later ones LOCKED; plus XP totals, monthly score records and a logbook note.
 * Returns the number of lesson pages written.
 */
export function generateLearners(
  t: Template,
  from: number,
  to: number,
  opts: GenerateOptions,
  out: Batch,
): number {
  const { now } = opts;
  let pages = 0;
  let cohort: { c: number; classes: string[][] } | undefined;
  for (let i = from; i < to; i++) {
    const c = Math.floor(i / COHORT);
    if (cohort?.c !== c) {
      // A cohort's classes are written with its first learner (sizes are multiples of COHORT).
      cohort = { c, classes: cohortClasses(t, c, opts, i % COHORT === 0 ? out : emptyBatch()) };
    }
    const rnd = random(i + 1);
    const userId = learnerId(i);
    const created = now - 400 * DAY;
    let done = 0;
    let time = 0;
    let xp = 0;
    cohort.classes.forEach((programIds, k) => {
      const classId = `gen-c${String(c).padStart(5, '0')}-${k}`;
      out.class_users.push([`${classId}-${userId}`, classId, userId, 'STUDENT', iso(created)]);
      const template = t.classes[(c * 7 + k * 3) % t.classes.length] as TemplateClass;
      template.programs.forEach((program, p) => {
        const classProgramId = programIds[p] as string;
        // How far this learner went: courses before `reached` are done, `reached` is under way.
        const reached = opts.fresh ? 0 : Math.floor(rnd() * (program.courses.length + 1));
        program.courses.forEach((course, index) => {
          const lessonId = `${classProgramId}-${userId}-${index}`;
          const started = !opts.fresh && (index < reached || (index === reached && rnd() < 0.7));
          const state = index < reached ? 'DONE' : index === reached ? 'AVAILABLE' : 'LOCKED';
          // The lesson's columns up to its state; the rest depends on the history below.
          const lesson = [
            lessonId,
            t.contextId,
            userId,
            classId,
            classProgramId,
            course.programCourseId,
            course.courseId,
            JSON.stringify(course.sectionIds),
            state,
          ];
          if (!started) {
            out.lessons.push([
              ...lesson,
              null,
              0,
              0,
              '{"global":{"actual":0,"max":0}}',
              null,
              null,
              null,
              iso(created),
              iso(created),
            ]);
            return;
          }
          const startDay = now - Math.floor(rnd() * 365) * DAY - Math.floor(rnd() * 10) * 3_600_000;
          const count = index < reached ? course.pages.length : 1 + Math.floor(rnd() * course.pages.length);
          let actual = 0;
          let max = 0;
          let spent = 0;
          let last = startDay;
          const rows: Row[] = [];
          for (let n = 0; n < count; n++) {
            const page = course.pages[n]!;
            const answered = Math.min(now - 60_000, startDay + n * (DAY * (0.5 + rnd())) + rnd() * 3_600_000);
            const open = index === reached && n === count - 1 && rnd() < 0.3;
            const seconds = 20 + Math.floor(rnd() * 580);
            const pageMax = rnd() < 0.7 ? 10 : 0;
            const pageActual = pageMax ? Math.round(rnd() * pageMax * 100) / 100 : 0;
            spent += seconds;
            last = answered;
            if (!open) {
              actual += pageActual;
              max += pageMax;
              done++;
            }
            rows.push([
              `${lessonId}-${n}`,
              lessonId,
              page.nodeId,
              page.sectionId,
              page.choiceOf,
              n,
              open ? 'ONGOING' : 'COMPLETED',
              open ? 0 : pageActual,
              open ? 0 : pageMax,
              seconds,
              seconds,
              iso(answered - seconds * 1000),
              open ? null : iso(answered),
              iso(answered - seconds * 1000),
              iso(answered),
            ]);
          }
          pages += count;
          time += spent;
          xp += actual;
          const finished = index < reached;
          const scoring = JSON.stringify({ global: { actual: Math.round(actual * 100) / 100, max } });
          out.lessons.push([
            ...lesson,
            finished ? 'COMPLETED' : 'ONGOING',
            spent,
            spent,
            scoring,
            null,
            iso(startDay),
            finished ? iso(last) : null,
            iso(created),
            iso(last),
          ]);
          out.lesson_pages.push(...rows);
        });
      });
    });
    out.users.push([
      userId,
      t.contextId,
      `${userId}@bench.test`,
      'Gen',
      userId,
      t.legal,
      JSON.stringify({ xp: Math.round(xp) }),
      t.passwordHash,
      done,
      time,
      iso(created),
      iso(created),
    ]);
    if (opts.fresh) continue;
    for (let m = 0; m < 12; m += 2) {
      const date = now - (m * 30 + Math.floor(rnd() * 20)) * DAY;
      const scoring = JSON.stringify({
        xp: Math.round(xp * (1 - m / 12)),
        donePageCount: done,
        timeAlive: time,
      });
      out.records.push([`${userId}-r${m}`, t.contextId, userId, iso(date), scoring]);
    }
    out.log_book_records.push([
      `${userId}-n1`,
      t.contextId,
      'Note',
      'Une note de mon journal de bord.',
      userId,
      userId,
      iso(created),
      iso(created),
    ]);
  }
  return pages;
}
