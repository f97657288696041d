/** classes.yaml: classes, their programs and users, invitation codes, then lessons for every student. */
import { ensureLessons } from '../enrolment';
import type { TenantWrite } from './context';
import { json } from './context';

/**
 * Decision 0019: an enrolment that states a time accommodation gets it on every import; one
 * that states none keeps what its teacher set in the app (the columns are left alone).
 */
function accommodationOf(u: { timeFactor?: number | undefined; noTimeLimit?: boolean | undefined }) {
  if (u.timeFactor === undefined && u.noTimeLimit === undefined) return {};
  const none = u.noTimeLimit === true;
  return {
    timeFactor: none || u.timeFactor === 1 ? null : (u.timeFactor ?? null),
    noTimeLimit: none ? 1 : 0,
  };
}

export async function writeClasses(tw: TenantWrite): Promise<void> {
  const { db, w, b, ctx, contextId, id, date, userId } = tw;
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
    // Class steps: kept as written (an unchanged import writes nothing); a removed step goes.
    for (const p of cl.programs) {
      const classProgramId = id('class-program', cl.id, p.program);
      const stepIds = p.steps.map((course) => id('class-step', cl.id, p.program, course));
      for (const [order, course] of p.steps.entries())
        await w.upsert(
          'classSteps',
          { id: stepIds[order]! },
          { classProgramId, resourceId: id('program-course', p.program, course), order },
        );
      let stale = db.deleteFrom('classSteps').where('classProgramId', '=', classProgramId);
      if (stepIds.length) stale = stale.where('id', 'not in', stepIds);
      await stale.execute();
    }
    for (const u of cl.users)
      await w.upsert(
        'classUsers',
        { id: id('class-user', cl.id, u.user, u.role) },
        { classId, userId: userId(u.user), role: u.role, ...accommodationOf(u) },
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
}
