/** programs.yaml: programs and their courses, with progression settings. */
import type { ProgramCourseFile } from '../format';
import type { TenantWrite } from './context';
import { json } from './context';

/**
 * `program_courses.settings` (docs/content-format.md "Progression"): course slugs become course
 * ids; only the keys given are written, so a plain entry stays `{}`.
 */
function programCourseSettings(
  entry: ProgramCourseFile | undefined,
  courseId: (slug: string) => string,
): string {
  if (!entry) return '{}';
  return json({
    ...(entry.unlocks ? { unlocks: entry.unlocks.map(courseId) } : {}),
    ...(entry.question
      ? {
          question: {
            label: entry.question.label,
            choices: entry.question.choices.map((c) => ({
              response: c.response,
              target: courseId(c.target),
            })),
          },
        }
      : {}),
    ...(entry.endOfProgram !== undefined ? { endOfProgram: entry.endOfProgram } : {}),
  });
}

export async function writePrograms(tw: TenantWrite): Promise<void> {
  const { w, b, contextId, id } = tw;
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
        {
          programId,
          courseId: id('course', c),
          order: i,
          settings: programCourseSettings(
            p.progression.find((e) => e.course === c),
            (x) => id('course', x),
          ),
        },
      );
  }
}
