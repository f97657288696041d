/** Lesson page documents shaped like the API's, for the player's tests. */
import type { BlockView, LessonPageAttributes, PageResults } from '@parcours/domain/entities';
import type { LessonPageDocument } from './api/lesson-page';

export function block(overrides: Partial<BlockView> = {}): BlockView {
  return {
    id: 'b1',
    title: 'Des fractions égales',
    type: 'exercice',
    settings: { hintCount: 0 },
    content: {
      statement: { html: '<p>Cochez les fractions égales à 1/2.</p>' },
      sections: [{ rows: [{ type: 'multiple-choice', choices: [{ value: '2/4' }, { value: '2/3' }] }] }],
    },
    terms: [],
    ...overrides,
  };
}

export function results(overrides: Partial<PageResults> = {}): PageResults {
  return {
    answerRatios: [1],
    outcome: 'correct',
    score: { actual: 10, max: 10 },
    feedbacks: [],
    correction: [],
    hints: { messages: [], remaining: 0, nextMalus: null },
    retryAllowed: false,
    ...overrides,
  };
}

export function pageAttributes(overrides: Partial<LessonPageAttributes> = {}): LessonPageAttributes {
  return {
    lessonId: 'l1',
    nodeId: 'n1',
    index: 0,
    count: 3,
    state: 'ACTIVE',
    progress: null,
    node: {
      id: 'n1',
      type: 'block',
      title: null,
      parentId: 'c1',
      settings: {},
      tools: {},
      attachmentIds: [],
    },
    block: block(),
    children: [],
    hints: { messages: [], remaining: 0, nextMalus: null },
    inputs: null,
    results: null,
    timeLimit: null,
    remainingSeconds: null,
    startedAt: null,
    timeSpent: 0,
    answeredAt: null,
    lessonScoring: { global: { actual: 0, max: 0 } },
    courseTypeSettings: { hints: true, feedbacks: true, retry: false },
    sectionId: 'c1',
    attempt: 1,
    current: true,
    lessonTimeLimit: null,
    lessonRemainingSeconds: null,
    tincanLaunch: null,
    ...overrides,
  };
}

export function pageDoc(id: string, overrides: Partial<LessonPageAttributes> = {}): LessonPageDocument {
  return { data: { type: 'lesson-pages', id, attributes: pageAttributes(overrides) } };
}

export const errorBody = (code: string, status = 409) => ({
  status,
  body: { errors: [{ status: String(status), code, title: code }] },
});
