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
