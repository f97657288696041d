import type { Document, LessonPageAttributes, Resource } from '@parcours/domain/entities';

/** A lesson page as the player holds it: the resource's id beside its attributes. */
export type LessonPage = LessonPageAttributes & { id: string };

export type LessonPageDocument = Document<Resource<'lesson-pages', LessonPageAttributes>>;

/** Action calls answer the page document (docs/api.md "Lesson player"). */
export function toLessonPage(doc: LessonPageDocument): LessonPage {
  return { ...doc.data.attributes, id: doc.data.id };
}

export const lessonPath = (lessonId: string) => `lessons/${encodeURIComponent(lessonId)}`;

/** The lesson's current page (get-current-page.ts); index.html starts it early (app/early-plan.ts). */
export const currentPagePath = (lessonId: string) => `${lessonPath(lessonId)}/pages/current`;
