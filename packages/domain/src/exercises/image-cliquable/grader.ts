/**
 * image-cliquable: click every zone that matches; the public row lists the zones as `choices`.
 * Answer: distinct zone indexes. Stored in the solution: the indexes of the zones to click.
 *
 * Zones are graded exactly like multiple-choice picks (ratio = max(0, (right zones − wrong
 * zones) / expected count), a zone's feedback shows when it is clicked), so this entry is the
 * multiple-choice one under its own name: a change to that rule changes both, on purpose.
 */
export type { Answer, Detail, Expected } from '../multiple-choice/grader';
export { answerFeedbacks, answerSchema, expectedSchema, grade, grader } from '../multiple-choice/grader';
