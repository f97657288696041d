/** Cross-file checks of a tenant's course files: ids, catalogue references, rows and node trees. */
import type { BlockFile, CourseFile, NodeFile, TenantFile } from '../format';
import { CLICKABLE_IMAGE_WIDTH, parsePickWords } from '../format';
import type { FileUse } from '../files';
import type { ImportIssue, Push } from '../issues';
import { checkDuplicates } from '../issues';
import { validateDatasets } from './datasets';
import type { TenantBundle } from '../load';

export const EXERCISE_ROWS = new Set([
  'multiple-choice',
  'combined-choice',
  'free-answer',
  'drag-n-drop',
  'pick-words',
  'image-cliquable',
]);

/** What tenant.yaml defines, for the references of course files. */
export interface CatalogueIndex {
  types: Set<string>;
  categories: Set<string>;
  competencies: Map<string, TenantFile['competencies'][number]>;
}

/** Returns the course ids of the tenant. */
export function validateCourses(
  b: TenantBundle,
  { types, categories, competencies }: CatalogueIndex,
  issues: ImportIssue[],
  uses: FileUse[],
): Set<string> {
  const push = (file: string, p: string, message: string) => issues.push({ file, path: p, message });
  const useFile = (file: string, p: string, rel: string) => uses.push({ file, path: p, rel, kind: 'file' });
  const certifying = new Set(
    b.tenant.data.courseTypes.filter((x) => x.settings.certificate).map((x) => x.id),
  );

  const terms = new Set<string>();
  const blocks = new Map<string, BlockFile>();
  const courseIds = new Set<string>();
  const blockIds: { id: string; file: string; path: string }[] = [];
  const termIds: { id: string; file: string; path: string }[] = [];
  const courseIdList: { id: string; file: string; path: string }[] = [];
  for (const c of b.courses) {
    courseIdList.push({ id: c.data.id, file: c.file, path: 'id' });
    courseIds.add(c.data.id);
    c.data.terms.forEach((x, i) => {
      termIds.push({ id: x.id, file: c.file, path: `terms[${i}].id` });
      terms.add(x.id);
    });
    c.data.blocks.forEach((x, i) => {
      blockIds.push({ id: x.id, file: c.file, path: `blocks[${i}].id` });
      blocks.set(x.id, x);
    });
  }
  checkDuplicates(courseIdList, 'course', issues);
  checkDuplicates(termIds, 'term', issues);
  checkDuplicates(blockIds, 'block', issues);

  for (const c of b.courses) {
    const cf = c.file;
    const d = c.data;
    if (d.type && !types.has(d.type)) push(cf, 'type', `unknown course type "${d.type}"`);
    if (d.certification && !certifying.has(d.type ?? ''))
      push(cf, 'certification', 'a certifying course needs a course type with settings.certificate: true');
    if ('timeLimit' in d.settings)
      push(
        cf,
        'settings.timeLimit',
        "give the lesson's time limit as the course's timeLimit field (seconds)",
      );
    if ('certification' in d.settings)
      push(
        cf,
        'settings.certification',
        "give the certification settings as the course's certification field",
      );
    if (!categories.has(d.category)) push(cf, 'category', `unknown category "${d.category}"`);
    d.competencies.forEach(
      (x, i) => !competencies.has(x) && push(cf, `competencies[${i}]`, `unknown competency "${x}"`),
    );
    d.blocks.forEach((blk, bi) => {
      const bp = `blocks[${bi}]`;
      if (blk.category && !categories.has(blk.category))
        push(cf, `${bp}.category`, `unknown category "${blk.category}"`);
      if (blk.competency && !competencies.has(blk.competency))
        push(cf, `${bp}.competency`, `unknown competency "${blk.competency}"`);
      blk.terms.forEach((x, i) => !terms.has(x) && push(cf, `${bp}.terms[${i}]`, `unknown term "${x}"`));
      blk.attachments.forEach((f, i) => useFile(cf, `${bp}.attachments[${i}]`, f));
      if (blk.interactiveImage) useFile(cf, `${bp}.interactiveImage.image`, blk.interactiveImage.image);
      if (blk.tincan && 'path' in blk.tincan)
        uses.push({ file: cf, path: `${bp}.tincan.path`, rel: blk.tincan.path, kind: 'tincan' });
      if (blk.package)
        uses.push({
          file: cf,
          path: `${bp}.package`,
          rel: typeof blk.package === 'string' ? blk.package : blk.package.path,
          kind: 'package',
        });
      if (blk.type === 'tincan' && !blk.tincan && !blk.package)
        push(cf, `${bp}.tincan`, 'a tincan block needs tincan.path, tincan.url or package');
      if (blk.tincan && blk.package)
        push(cf, `${bp}.package`, 'a tincan block plays a module (tincan) or a package, not both');
      if (blk.type !== 'tincan' && blk.tincan)
        push(cf, `${bp}.tincan`, 'only tincan blocks have a tincan module');
      if (blk.type !== 'tincan' && blk.package)
        push(cf, `${bp}.package`, 'only tincan blocks play a package');
      let exercises = 0;
      blk.sections.forEach((s, si) =>
        s.rows.forEach((row, ri) => {
          const rp = `${bp}.sections[${si}].rows[${ri}]`;
          if (EXERCISE_ROWS.has(row.type)) {
            exercises++;
            if (blk.type !== 'exercice') push(cf, `${rp}.type`, `${row.type} rows belong in exercice blocks`);
          }
          validateRow(row, rp, cf, push, (p, rel) => useFile(cf, p, rel));
        }),
      );
      validateDatasets(blk, bp, cf, push);
      if (blk.type === 'exercice' && exercises === 0)
        push(cf, `${bp}.sections`, 'an exercice block needs at least one exercise row');
    });
    validateTree(d, cf, blocks, push, useFile);
  }
  return courseIds;
}

export function countPages(nodes: NodeFile[]): number {
  return nodes.reduce((n, c) => n + (c.block ? 1 : countPages(c.children)), 0);
}

function validateRow(
  row: BlockFile['sections'][number]['rows'][number],
  rp: string,
  cf: string,
  push: Push,
  useFile: (p: string, rel: string) => void,
): void {
  const inRange = (idx: number, n: number, p: string) => {
    if (idx >= n) push(cf, p, `index ${idx} is out of range (${n} choices, counted from 0)`);
  };
  if ('choices' in row) row.choices.forEach((c, i) => c.file && useFile(`${rp}.choices[${i}].file`, c.file));
  if (row.settings.audioFile) useFile(`${rp}.settings.audioFile`, row.settings.audioFile);
  switch (row.type) {
    case 'multiple-choice':
      row.expected.forEach((e, i) => inRange(e, row.choices.length, `${rp}.expected[${i}]`));
      if (new Set(row.expected).size !== row.expected.length)
        push(cf, `${rp}.expected`, 'an index is repeated');
      break;
    case 'combined-choice':
      if (typeof row.expected === 'number') inRange(row.expected, row.choices.length, `${rp}.expected`);
      break;
    case 'drag-n-drop': {
      if (row.expected.length !== row.targets.length)
        push(
          cf,
          `${rp}.expected`,
          `expected needs one list per target (${row.targets.length}), got ${row.expected.length}`,
        );
      const placed = new Set<number>();
      row.expected.forEach((l, t) =>
        l.forEach((e, i) => {
          inRange(e, row.choices.length, `${rp}.expected[${t}][${i}]`);
          if (placed.has(e)) push(cf, `${rp}.expected[${t}][${i}]`, `choice ${e} is expected in two targets`);
          placed.add(e);
        }),
      );
      if (placed.size === 0) push(cf, `${rp}.expected`, 'no choice is expected in any target');
      break;
    }
    case 'pick-words':
      if (parsePickWords(row.text).positions.length === 0)
        push(cf, `${rp}.text`, 'mark the words to pick with [[double brackets]]');
      break;
    case 'image-cliquable':
      useFile(`${rp}.image`, row.image);
      row.expected.forEach((e, i) => inRange(e, row.zones.length, `${rp}.expected[${i}]`));
      if (new Set(row.expected).size !== row.expected.length)
        push(cf, `${rp}.expected`, 'an index is repeated');
      row.zones.forEach((z, i) => {
        const pts: [number, number][] =
          z.shape === 'circle'
            ? [[z.cx, z.cy]]
            : z.shape === 'rectangle'
              ? [
                  [z.x, z.y],
                  [z.x + z.width, z.y + z.height],
                ]
              : z.points;
        if (pts.some(([x, y]) => x < 0 || y < 0 || x > CLICKABLE_IMAGE_WIDTH || y > row.viewBox.height))
          push(
            cf,
            `${rp}.zones[${i}]`,
            `zone outside the viewBox 0 0 ${CLICKABLE_IMAGE_WIDTH} ${row.viewBox.height}`,
          );
      });
      break;
    case 'media-internal':
      useFile(`${rp}.file`, row.file);
      break;
    case 'media-tincan':
      break;
    case 'medias-by-mail':
      row.files.forEach((f, i) => useFile(`${rp}.files[${i}]`, f));
      break;
    case 'widgets':
      row.widgets.forEach((w, i) => 'file' in w && w.file && useFile(`${rp}.widgets[${i}].file`, w.file));
      break;
    default:
      break;
  }
}

function validateTree(
  d: CourseFile,
  cf: string,
  blocks: Map<string, BlockFile>,
  push: Push,
  useFile: (file: string, p: string, rel: string) => void,
): void {
  const ids = new Map<string, string>();
  const walk = (n: NodeFile, p: string, depth: number, underBlock: boolean): void => {
    if (ids.has(n.id)) push(cf, `${p}.id`, `duplicate node id "${n.id}" (first at ${ids.get(n.id)})`);
    else ids.set(n.id, p);
    n.attachments.forEach((f, i) => useFile(cf, `${p}.attachments[${i}]`, f));
    if (underBlock) {
      // docs/product.md §3 "a block holds resources": each one a block node of its own, listed by the
      // toolbar's resources (GET pages/{id}/resources), never a page of the lesson.
      validateResource(n, p, cf, blocks, push);
      return;
    }
    const type = nodeType(n, depth);
    if (depth === 1 && type !== 'container')
      push(cf, `${p}.type`, 'the root holds containers (sections) only');
    if (depth > 1 && type === 'container') push(cf, `${p}.type`, 'a container belongs right under the root');
    if (depth > 2 && type === 'multiblock') push(cf, `${p}.type`, 'a multiblock belongs in a container');
    if (type === 'block') {
      if (!n.block) push(cf, `${p}.block`, 'a block node needs a block id');
      else if (!blocks.has(n.block)) push(cf, `${p}.block`, `unknown block "${n.block}"`);
    } else {
      if (n.block) push(cf, `${p}.block`, `a ${type} node does not hold a block`);
      if (n.children.length === 0) push(cf, `${p}.children`, `a ${type} node needs children`);
    }
    checkConditions(n, p, depth);
    n.children.forEach((c, i) => walk(c, `${p}.children[${i}]`, depth + 1, type === 'block'));
    if (type === 'block') earlierBlocks.add(n.id);
  };
  // Decision 0051: a condition names a block node read before the node it is on (the file's order
  // is the reading order), so the server can always decide it when the learner gets there.
  const earlierBlocks = new Set<string>();
  const checkConditions = (n: NodeFile, p: string, depth: number): void => {
    if (n.conditions.length === 0) return;
    if (depth > 2)
      push(
        cf,
        `${p}.conditions`,
        'conditions belong on a section or on a page of a section, not inside a choice',
      );
    n.conditions.forEach((c, i) => {
      if (!earlierBlocks.has(c.node))
        push(cf, `${p}.conditions[${i}].node`, `"${c.node}" is not a block node read before this one`);
    });
  };
  d.tree.children.forEach((c, i) => walk(c, `tree.children[${i}]`, 1, false));
}

/** A resource node under a block: a slide block of its own (read in the resource modal, never graded), no children. */
function validateResource(
  n: NodeFile,
  p: string,
  cf: string,
  blocks: Map<string, BlockFile>,
  push: Push,
): void {
  if (n.type && n.type !== 'block') push(cf, `${p}.type`, 'a resource under a block is a block node');
  if (!n.block) push(cf, `${p}.block`, 'a resource node needs a block id');
  else {
    const blk = blocks.get(n.block);
    if (!blk) push(cf, `${p}.block`, `unknown block "${n.block}"`);
    else if (blk.type !== 'slide') push(cf, `${p}.block`, `a resource is a slide block, not ${blk.type}`);
  }
  if (n.children.length) push(cf, `${p}.children`, 'a resource node has no children');
  if (n.settings.timeLimit) push(cf, `${p}.settings.timeLimit`, 'a resource node has no time limit');
}

export function nodeType(n: NodeFile, depth: number): 'container' | 'multiblock' | 'block' {
  return n.type ?? (n.block ? 'block' : depth === 1 ? 'container' : 'multiblock');
}
