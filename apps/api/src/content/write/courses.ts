/** Course files: terms and blocks of every course first (nodes may use another course's blocks), then courses and their node trees. */
import { buildBlock } from '../blocks';
import type { CourseFile, NodeFile } from '../format';
import type { CertificationWording } from '../schemas/common';
import { sanitizeContentHtml } from '../sanitize';
import { nodeType } from '../validate/courses';
import type { TenantWrite } from './context';
import { json } from './context';

/**
 * `courses.settings`: the file's settings, plus `certification: { passingScore, wording }` for a
 * certifying course (the wording defaults to the tenant's).
 */
export function courseSettings(d: CourseFile, tenantWording: CertificationWording): Record<string, unknown> {
  const settings = d.timeLimit === undefined ? d.settings : { ...d.settings, timeLimit: d.timeLimit };
  if (!d.certification) return settings;
  const { passingScore, wording } = d.certification;
  return { ...settings, certification: { passingScore, wording: wording ?? tenantWording } };
}

export async function writeCourses(tw: TenantWrite): Promise<void> {
  const { db, w, b, contextId, id, fileId, refs } = tw;
  for (const c of b.courses) {
    for (const term of c.data.terms)
      await w.upsert(
        'courseTerms',
        { id: id('term', term.id) },
        {
          contextId,
          title: term.title,
          words: json(term.words),
          definition: sanitizeContentHtml(term.definition),
        },
      );
  }
  for (const c of b.courses) {
    for (const blk of c.data.blocks) {
      const built = buildBlock(blk, refs);
      const blockId = id('block', blk.id);
      await w.upsert(
        'courseBlocks',
        { id: blockId },
        {
          contextId,
          title: blk.title,
          type: blk.type,
          categoryId: id('category', blk.category ?? c.data.category),
          competencyId: blk.competency ? id('competency', blk.competency) : null,
          attachmentIds: json(blk.attachments.map(fileId)),
          settings: json(built.settings),
          content: json(built.content),
          solution: json(built.solution),
        },
      );
      for (const term of blk.terms)
        await w.upsert('courseBlockTerms', { blockId, termId: id('term', term) }, {});
      await w.prune(
        'courseBlockTerms',
        'blockId',
        blockId,
        'termId',
        blk.terms.map((x) => id('term', x)),
      );
    }
  }

  for (const c of b.courses) {
    const d = c.data;
    const courseId = id('course', d.id);
    await w.upsert(
      'courses',
      { id: courseId },
      {
        contextId,
        title: d.title,
        description: d.description,
        reference: d.reference,
        state: d.state,
        categoryId: id('category', d.category),
        typeId: d.type ? id('course-type', d.type) : null,
        competencyIds: json(d.competencies.map((x) => id('competency', x))),
        video: d.video,
        settings: json(courseSettings(d, tw.t.settings.certification.type)),
      },
    );
    const nodeId = (nid: string) => id('node', d.id, nid);
    const rootId = nodeId('root');
    const keep = [rootId];
    await w.upsert(
      'courseNodes',
      { id: rootId },
      {
        courseId,
        parentId: null,
        type: 'root',
        blockId: null,
        order: 0,
        title: d.tree.title ?? d.title,
        settings: '{}',
        tools: '{}',
        conditions: '[]',
        attachmentIds: '[]',
      },
    );
    const writeNode = async (n: NodeFile, parentId: string, order: number, depth: number): Promise<void> => {
      const nid = nodeId(n.id);
      keep.push(nid);
      const type = nodeType(n, depth);
      const blk = n.block ? b.courses.flatMap((x) => x.data.blocks).find((x) => x.id === n.block) : undefined;
      await w.upsert(
        'courseNodes',
        { id: nid },
        {
          courseId,
          parentId,
          type,
          blockId: n.block ? id('block', n.block) : null,
          order,
          title: n.title ?? blk?.title ?? null,
          settings: json(n.settings),
          tools: json(n.tools),
          // The named node is served by its API id, as every node is (decision 0051).
          conditions: json(n.conditions.map((c) => ({ ...c, node: nodeId(c.node) }))),
          attachmentIds: json(n.attachments.map(fileId)),
        },
      );
      for (const [i, child] of n.children.entries()) await writeNode(child, nid, i, depth + 1);
    };
    for (const [i, child] of d.tree.children.entries()) await writeNode(child, rootId, i, 1);
    // Nodes removed from the file go, unless a learner's page still points at them.
    const stale = (await db.selectFrom('courseNodes').select('id').where('courseId', '=', courseId).execute())
      .map((r) => r.id)
      .filter((x) => !keep.includes(x));
    if (stale.length) {
      const used = await db
        .selectFrom('lessonPages')
        .select('nodeId')
        .where('nodeId', 'in', stale)
        .executeTakeFirst();
      if (!used) await w.prune('courseNodes', 'courseId', courseId, 'id', keep);
    }
  }
}
