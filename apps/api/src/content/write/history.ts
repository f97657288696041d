/**
 * DEMO ONLY: lesson history of classes.yaml, so the demo learner's home and dashboard show real
 * progress: lessons and their pages (with dates, scores and time when the entry says so), then
 * each learner's XP, done pages and daily score records derived from those pages.
 */
import { ROW_POINTS } from '@parcours/domain/exercises/grade-page';
import { stableId } from '../../lib/ids';
import { coursePages } from '../enrolment';
import type { NodeFile } from '../format';
import { resolveDate } from '../format';
import type { HistoryFile } from '../schemas/classes';
import { EXERCISE_ROWS } from '../validate/courses';
import type { TenantWrite } from './context';
import { json } from './context';
import type { DonePage } from './records';
import { writeLearnerTotals } from './records';

const DAY = 86_400_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

export interface PagePlan {
  openedAt: string;
  answeredAt: string;
  timeSpent: number;
  scoreActual: number;
  scoreMax: number;
}

/**
 * When, how long and how well each done page was answered (pure, so the same file and day give
 * the same rows). With `activity`, page k of n is answered on the day k/(n-1) of the way from
 * `from` to `to`, at 09:30 UTC plus 11 minutes per page (so pages of one day stay in order), and
 * the lesson's time is shared out evenly (the remainder on the last page). Without it every page
 * is answered when the lesson started and carries no time. With `ratio`, a graded page earns
 * that share of its points (2 decimals, as the graders round).
 */
export function planPages(h: HistoryFile, pageMaxes: number[], startedAt: string, now: Date): PagePlan[] {
  const n = pageMaxes.length;
  const from = h.activity ? Date.parse(resolveDate(h.activity.from, now)) : 0;
  const to = h.activity ? Date.parse(resolveDate(h.activity.to, now)) : 0;
  const share = Math.floor(h.timeSpent / Math.max(n, 1));
  return pageMaxes.map((max, k) => {
    const scoreMax = h.ratio === undefined ? 0 : max;
    const scoreActual = h.ratio === undefined ? 0 : round2(h.ratio * max);
    if (!h.activity)
      return { openedAt: startedAt, answeredAt: startedAt, timeSpent: 0, scoreActual, scoreMax };
    const day = n > 1 ? from + Math.round(((to - from) / DAY) * (k / (n - 1))) * DAY : from;
    const answered = day + 9.5 * 3_600_000 + k * 11 * 60_000;
    const timeSpent = k === n - 1 ? h.timeSpent - share * (n - 1) : share;
    return {
      openedAt: new Date(answered - timeSpent * 1000).toISOString(),
      answeredAt: new Date(answered).toISOString(),
      timeSpent,
      scoreActual,
      scoreMax,
    };
  });
}

export async function writeHistory(tw: TenantWrite): Promise<void> {
  const { db, w, b, id, date, userId, ctx } = tw;
  const programs = b.programs?.data.programs ?? [];
  const classes = b.classes?.data.classes ?? [];

  // Points of every page: ROW_POINTS per exercise row of its block, as the graders count.
  const blocks = new Map(b.courses.flatMap((c) => c.data.blocks.map((x) => [x.id, x] as const)));
  const pointsOf = new Map<string, number>();
  for (const c of b.courses) {
    const walk = (nodes: NodeFile[]): void => {
      for (const n of nodes) {
        const blk = n.block ? blocks.get(n.block) : undefined;
        if (blk) {
          const rows = blk.sections.flatMap((s) => s.rows).filter((r) => EXERCISE_ROWS.has(r.type)).length;
          pointsOf.set(id('node', c.data.id, n.id), rows * ROW_POINTS);
        }
        walk(n.children);
      }
    };
    walk(c.data.tree.children);
  }

  // Learners with page-by-page history (activity or ratio) get their totals and records rebuilt.
  const donePages = new Map<string, DonePage[]>();
  const rich = new Set<string>();
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
        const startedAt = date(h.startedAt ?? h.activity?.from ?? cl.startAt ?? 'now')!;
        const done = pages.slice(0, h.pagesDone);
        const plans = planPages(
          h,
          done.map((p) => pointsOf.get(p.nodeId) ?? 0),
          startedAt,
          ctx.now,
        );
        const last = plans.at(-1)?.answeredAt ?? startedAt;
        const score = h.score ?? {
          actual: round2(plans.reduce((s, p) => s + p.scoreActual, 0)),
          max: plans.reduce((s, p) => s + p.scoreMax, 0),
        };
        await w.upsert(
          'lessons',
          { id: lessonId },
          {
            state: h.state,
            progress: isDone ? 'COMPLETED' : h.pagesDone > 0 || ongoing ? 'ONGOING' : null,
            currentNodeId: ongoing?.nodeId ?? null,
            startedAt,
            endedAt: isDone ? (h.activity ? last : startedAt) : null,
            timeSpent: h.timeSpent,
            scoring: json({ global: score }),
            certificationRef: h.certificationRef ?? null,
          },
          'lessons (demo history)',
        );
        const rows = done.map((p, k) => ({ ...p, ...plans[k]!, progress: 'COMPLETED' }));
        if (ongoing) {
          const at = h.activity ? last : startedAt;
          rows.push({
            ...ongoing,
            openedAt: at,
            answeredAt: '',
            timeSpent: 0,
            scoreActual: 0,
            scoreMax: 0,
            progress: 'ONGOING',
          });
        }
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
              openedAt: p.openedAt,
              answeredAt: p.progress === 'COMPLETED' ? p.answeredAt : null,
              scoreActual: p.scoreActual,
              scoreMax: p.scoreMax,
              timeSpent: p.timeSpent,
            },
            'lessonPages (demo history)',
          );
        if (h.activity || h.ratio !== undefined) rich.add(u.user);
        const list = donePages.get(u.user) ?? [];
        list.push(
          ...plans.map((p) => ({ answeredAt: p.answeredAt, xp: p.scoreActual, timeSpent: p.timeSpent })),
        );
        donePages.set(u.user, list);
      }
    }
  }
  for (const u of rich) await writeLearnerTotals(tw, userId(u), donePages.get(u) ?? []);
}
