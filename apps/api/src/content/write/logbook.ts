/**
 * classes.yaml `logbook`: notes about a student (docs/product.md §3 LogBookRecord), written by the student
 * or a teacher of the class. A note's id is its position under that class user, so editing a
 * note's text updates it; notes added in the app (random ids) are never touched.
 */
import type { TenantWrite } from './context';

export async function writeLogbook(tw: TenantWrite): Promise<void> {
  const { w, b, contextId, id, date, userId } = tw;
  for (const cl of b.classes?.data.classes ?? []) {
    for (const u of cl.users) {
      for (const [k, n] of u.logbook.entries()) {
        const at = date(n.date)!;
        await w.upsert(
          'logBookRecords',
          { id: id('log-book-record', cl.id, u.user, String(k)) },
          {
            contextId,
            title: n.title,
            message: n.message,
            studentId: userId(u.user),
            userId: userId(n.author ?? u.user),
            parentId: null,
            classId: id('class', cl.id),
            companyId: cl.company ? id('company', cl.company) : null,
            attachmentIds: '[]',
            createdAt: at,
            lastInputAt: at,
          },
        );
      }
    }
  }
}
