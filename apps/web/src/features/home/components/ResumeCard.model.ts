/**
 * Which lesson the home's resume card offers (issue 12: on a phone the first "Start" was two
 * and a half screens down). Pure: built from the class cards and lessons the home already loads,
 * so the card costs no extra request.
 */
import { canOpen, type ClassView } from '../model';
import type { LessonResource } from '../api/get-lessons';

export interface ResumeTarget {
  lessonId: string;
  classId: string;
  className: string;
  programName: string;
  courseTitle: string;
  percent: number;
  scorePercent: number | null;
  /** Started lessons are resumed; otherwise the first lesson that can be opened is offered. */
  started: boolean;
}

/**
 * The lesson the learner was doing: the one last played on this device (`preferred`, newest
 * first) if it can still be opened and is not over; else the started one opened most recently;
 * else the first lesson the home offers to start. Null when nothing can be opened.
 */
export function resumeTarget(
  views: readonly ClassView[],
  lessons: readonly LessonResource[],
  preferred: readonly (string | null)[],
): ResumeTarget | null {
  const startedAt = new Map(lessons.map((l) => [l.id, l.attributes.startedAt]));
  const open: ResumeTarget[] = [];
  for (const view of views)
    for (const program of view.programs)
      for (const course of program.courses) {
        const lesson = course.lesson;
        if (!lesson || lesson.ended || !canOpen(view, course)) continue;
        open.push({
          lessonId: lesson.id,
          classId: view.id,
          className: view.name,
          programName: program.name,
          courseTitle: course.title,
          percent: lesson.percent,
          scorePercent: lesson.scorePercent,
          started: lesson.percent > 0 || Boolean(startedAt.get(lesson.id)),
        });
      }
  for (const id of preferred) {
    const hit = id ? open.find((t) => t.lessonId === id) : undefined;
    if (hit) return { ...hit, started: true };
  }
  const started = open
    .filter((t) => t.started)
    // ISO instants order as plain strings; localeCompare would load ICU on the home's first paint.
    .sort((a, b) => {
      const x = startedAt.get(a.lessonId) ?? '';
      const y = startedAt.get(b.lessonId) ?? '';
      return x < y ? 1 : x > y ? -1 : 0;
    });
  return started[0] ?? open[0] ?? null;
}
