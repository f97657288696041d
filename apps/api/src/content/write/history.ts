/** DEMO ONLY: lesson history of classes.yaml, so the demo learner's home shows real progress. */
import { stableId } from '../../lib/ids';
import { coursePages } from '../enrolment';
import type { TenantWrite } from './context';
import { json } from './context';

export async function writeHistory(tw: TenantWrite): Promise<void> {
  const { db, w, b, id, date, userId } = tw;
  const programs = b.programs?.data.programs ?? [];
  const classes = b.classes?.data.classes ?? [];
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
