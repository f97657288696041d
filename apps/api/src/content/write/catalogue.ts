/** tenant.yaml's catalogue: course types, categories, competencies (parents first: foreign keys). */
import type { TenantWrite } from './context';
import { json } from './context';

export async function writeCatalogue(tw: TenantWrite): Promise<void> {
  const { w, t, contextId, id, fileId } = tw;
  for (const ct of t.courseTypes)
    await w.upsert(
      'courseTypes',
      { id: id('course-type', ct.id) },
      { contextId, title: ct.title, description: ct.description, settings: json(ct.settings) },
    );
  for (const c of t.categories)
    await w.upsert(
      'courseCategories',
      { id: id('category', c.id) },
      {
        contextId,
        title: c.title,
        icon: c.icon,
        backgroundImageId: c.backgroundImage ? fileId(c.backgroundImage) : null,
      },
    );
  const depth = (cid: string): number => {
    const c = t.competencies.find((x) => x.id === cid);
    return c?.parent ? 1 + depth(c.parent) : 0;
  };
  for (const c of [...t.competencies].sort((a, z) => depth(a.id) - depth(z.id)))
    await w.upsert(
      'courseCompetencies',
      { id: id('competency', c.id) },
      {
        contextId,
        parentId: c.parent ? id('competency', c.parent) : null,
        isGeneric: c.isGeneric ? 1 : 0,
        title: c.title,
        icon: c.icon,
        order: c.order,
      },
    );
}
