/**
 * Turns the home's JSON:API documents into what a class card shows, and applies the filters.
 * Pure functions: the rules of docs/product.md §2 (filters) and §4 (class timing, progress, score) are
 * tested here without rendering.
 */
import {
  classPeriod,
  effectiveWindow,
  nextRefreshDelay,
  type ClassPeriod,
  type TimeWindow,
} from '@parcours/domain/class-timing';
import type {
  ClassAttributes,
  ClassProgramAttributes,
  CourseAttributes,
  LessonState,
  ProgramAttributes,
  ProgramCourseAttributes,
} from '@parcours/domain/entities';
import { lessonHasEnded, scorePercent } from '@parcours/domain/progress';
import { compareText } from '../../lib/collate';
import { indexDocument, relatedMany, relatedOne } from '../../lib/json-api';
import type { ClassUsersDocument } from './api/get-class-users';
import type { LessonResource } from './api/get-lessons';
import { logOnly } from '../../lib/log-only';

export interface LessonView {
  id: string;
  state: LessonState;
  percent: number;
  /** Shown only when the lesson has a positive maximum score (docs/product.md §4). */
  scorePercent: number | null;
  ended: boolean;
}

export interface CourseView {
  programCourseId: string;
  courseId: string;
  title: string;
  competencyIds: string[];
  lesson: LessonView | null;
}

export interface ProgramView {
  classProgramId: string;
  programId: string;
  name: string;
  courses: CourseView[];
  /** The class-program's own window (docs/product.md §3), which may open later than its class. */
  window?: TimeWindow;
}

export interface ClassView {
  id: string;
  name: string;
  startAt: string | null;
  expireAt: string | null;
  period: ClassPeriod;
  teachers: string[];
  programs: ProgramView[];
  /** docs/product.md §7: classes with settings.mobile.allowed false are not offered on small screens. */
  mobileAllowed: boolean;
}

function lessonView(lesson: LessonResource): LessonView {
  const a = lesson.attributes;
  return {
    id: lesson.id,
    state: a.state,
    percent: Math.max(0, Math.min(100, a.percentProgression ?? 0)),
    scorePercent: scorePercent(a.scoring?.global ?? { actual: 0, max: 0 }),
    ended: lessonHasEnded(a),
  };
}

function findLesson(
  lessons: readonly LessonResource[],
  classId: string,
  classProgramId: string,
  programCourseId: string,
  courseId: string,
): LessonResource | undefined {
  const inClass = lessons.filter((l) => l.attributes.classId === classId);
  return (
    inClass.find((l) => l.attributes.programCourseId === programCourseId) ??
    inClass.find(
      (l) =>
        l.attributes.courseId === courseId &&
        (l.attributes.classProgramId === null || l.attributes.classProgramId === classProgramId),
    )
  );
}

const byOrder = (a: { attributes: { order: number } }, b: { attributes: { order: number } }) =>
  a.attributes.order - b.attributes.order;

/** Class cards in the server's order (class-users sorted by -createdAt). */
export function buildClassViews(
  doc: ClassUsersDocument,
  lessons: readonly LessonResource[],
  now: Date,
): ClassView[] {
  const index = indexDocument(doc);
  const views: ClassView[] = [];
  const seen = new Set<string>();
  for (const classUser of doc.data) {
    const cls = relatedOne<ClassAttributes>(classUser, 'class', index);
    if (!cls) {
      // docs/product.md §8: no class, so no teachers to load; the membership shows nothing.
      logOnly('class missing: no teachers loaded', classUser.id);
      continue;
    }
    if (seen.has(cls.id)) continue;
    seen.add(cls.id);
    const programs: ProgramView[] = relatedMany<ClassProgramAttributes>(cls, 'classPrograms', index)
      .sort(byOrder)
      .flatMap((classProgram) => {
        const program = relatedOne<ProgramAttributes>(classProgram, 'program', index);
        if (!program) return [];
        const courses = relatedMany<ProgramCourseAttributes>(program, 'programCourses', index)
          .sort(byOrder)
          .flatMap((programCourse): CourseView[] => {
            const course = relatedOne<CourseAttributes>(programCourse, 'course', index);
            if (!course) return [];
            const lesson = findLesson(lessons, cls.id, classProgram.id, programCourse.id, course.id);
            // A hidden lesson is not offered to the learner yet: its course stays out of sight.
            if (lesson?.attributes.state === 'HIDDEN') return [];
            return [
              {
                programCourseId: programCourse.id,
                courseId: course.id,
                title: course.attributes.title,
                competencyIds: course.attributes.competencyIds ?? [],
                lesson: lesson ? lessonView(lesson) : null,
              },
            ];
          });
        return [
          {
            classProgramId: classProgram.id,
            programId: program.id,
            name: program.attributes.name,
            courses,
            window: {
              startAt: classProgram.attributes.startAt ?? null,
              expireAt: classProgram.attributes.expireAt ?? null,
            },
          },
        ];
      });
    const teachers = relatedMany<{ displayName?: string }>(cls, 'teachers', index)
      .map((teacher) => teacher.attributes.displayName?.trim() ?? '')
      .filter(Boolean);
    views.push({
      id: cls.id,
      name: cls.attributes.name,
      startAt: cls.attributes.startAt,
      expireAt: cls.attributes.expireAt,
      period: classPeriod({ startAt: cls.attributes.startAt, expireAt: cls.attributes.expireAt }, now),
      teachers,
      programs,
      mobileAllowed: cls.attributes.settings?.mobile?.allowed !== false,
    });
  }
  return views;
}

/** 'active' = current and next classes (the default list), 'next' = only upcoming, 'past' = expired. */
export type PeriodFilter = 'active' | 'next' | 'past';

export interface HomeFilters {
  period: PeriodFilter;
  programId: string | null;
  competencyId: string | null;
}

export const DEFAULT_FILTERS: HomeFilters = { period: 'active', programId: null, competencyId: null };

export function hasActiveFilter(filters: HomeFilters): boolean {
  return filters.period !== 'active' || filters.programId !== null || filters.competencyId !== null;
}

/** The competency and all its descendants, so a parent competency also finds its sub-competencies. */
export function competencyFamily(
  rootId: string,
  competencies: readonly { id: string; parentId: string | null }[],
): Set<string> {
  const family = new Set([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of competencies) {
      if (c.parentId && family.has(c.parentId) && !family.has(c.id)) {
        family.add(c.id);
        grew = true;
      }
    }
  }
  return family;
}

/**
 * Applies the docs/product.md §2 filters. A program or competency filter also narrows each card to the
 * matching programs and courses, so the learner sees why the class matched.
 */
export function filterClasses(
  views: readonly ClassView[],
  filters: HomeFilters,
  competencies: readonly { id: string; parentId: string | null }[] = [],
): ClassView[] {
  const family = filters.competencyId ? competencyFamily(filters.competencyId, competencies) : null;
  const result: ClassView[] = [];
  for (const view of views) {
    if (filters.period === 'next' && view.period !== 'next') continue;
    if (filters.period === 'past' && view.period !== 'past') continue;
    if (filters.period === 'active' && view.period === 'past') continue;
    let programs = view.programs;
    if (filters.programId) programs = programs.filter((p) => p.programId === filters.programId);
    if (family) {
      programs = programs
        .map((p) => ({
          ...p,
          courses: p.courses.filter((c) => c.competencyIds.some((id) => family.has(id))),
        }))
        .filter((p) => p.courses.length > 0);
    }
    if ((filters.programId || family) && programs.length === 0) continue;
    result.push(programs === view.programs ? view : { ...view, programs });
  }
  return result;
}

/** Distinct programs of the listed classes, by name, for the program filter. */
export function programOptions(views: readonly ClassView[]): { id: string; name: string }[] {
  const byId = new Map<string, string>();
  for (const view of views) for (const p of view.programs) byId.set(p.programId, p.name);
  return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => compareText(a.name, b.name));
}

/** Competency ids named by the courses of the listed classes. */
export function competencyIdsOf(views: readonly ClassView[]): string[] {
  const ids = new Set<string>();
  for (const view of views)
    for (const p of view.programs) for (const c of p.courses) c.competencyIds.forEach((id) => ids.add(id));
  return [...ids].sort();
}

/** Lessons can be opened from the card only while their class runs and the server says AVAILABLE. */
export function canOpen(view: ClassView, course: CourseView): boolean {
  return view.period === 'current' && course.lesson?.state === 'AVAILABLE';
}

/**
 * Issue 12: a program the learner has finished (every course's lesson ended) in a class that
 * runs can be restarted (`POST class-programs/{id}/reset/me`; the server also checks the
 * program's own window).
 */
export function canRestart(view: ClassView, program: ProgramView): boolean {
  return (
    view.period === 'current' &&
    program.courses.length > 0 &&
    program.courses.every((c) => c.lesson !== null && c.lesson.ended)
  );
}

export type { ClassPeriod };

/**
 * docs/product.md §4 class timing: how long until the home must look again because a class, or one of its
 * programs, opens (its start plus 200 ms, so the server already unlocks its lessons). Null when
 * nothing is waiting to open.
 */
export function nextOpeningDelay(views: readonly ClassView[], now: Date): number | null {
  const delays = views.flatMap((view) => {
    const classWindow = { startAt: view.startAt, expireAt: view.expireAt };
    return [classWindow, ...view.programs.map((program) => effectiveWindow(classWindow, program.window))].map(
      (window) => nextRefreshDelay(window, now),
    );
  });
  const waiting = delays.filter((delay): delay is number => delay !== null);
  return waiting.length > 0 ? Math.min(...waiting) : null;
}
