import { describe, expect, it } from 'vitest';
import { EXERCISE_TYPES, ROW_TYPES } from '../entities';
import { exerciseRegistry, isExerciseType } from './registry';

describe('exercise registry', () => {
  it('has a grader for every exercise type and nothing else', () => {
    expect(Object.keys(exerciseRegistry).sort()).toEqual([...EXERCISE_TYPES].sort());
  });

  it.each(ROW_TYPES.map((t) => [t, (EXERCISE_TYPES as readonly string[]).includes(t)] as const))(
    'isExerciseType(%s) → %s',
    (type, expected) => {
      expect(isExerciseType(type)).toBe(expected);
    },
  );

  it.each<[unknown]>([['exercice'], ['Multiple-Choice'], [''], [null], [42], [{}]])(
    'isExerciseType(%j) → false',
    (v) => {
      expect(isExerciseType(v)).toBe(false);
    },
  );
});

describe('answer schemas are built once per row', () => {
  it('reuses the schema of the same row object, and never lends one row’s bounds to another', () => {
    const grader = exerciseRegistry['multiple-choice'];
    const small = { type: 'multiple-choice', choices: [{ value: 'a' }, { value: 'b' }] };
    const large = {
      type: 'multiple-choice',
      choices: [{ value: 'a' }, { value: 'b' }, { value: 'c' }, { value: 'd' }],
    };
    expect(grader.answerSchema(small)).toBe(grader.answerSchema(small));
    expect(grader.answerSchema(large)).not.toBe(grader.answerSchema(small));
    // Index 3 exists only in the larger row, whichever was asked first.
    expect(grader.answerSchema(large).safeParse([3]).success).toBe(true);
    expect(grader.answerSchema(small).safeParse([3]).success).toBe(false);
    // An equal but distinct row object gets its own (equal) schema: the cache is by identity.
    const copy = { ...small };
    expect(grader.answerSchema(copy).safeParse([1]).success).toBe(true);
  });
});
