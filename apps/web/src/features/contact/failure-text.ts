import { errorCodeOf, fieldProblems } from '../../lib/api-errors';

/**
 * docs/product.md §8 contact errors: the translated title of the code (UNDEFINED when unknown), and the
 * message key of a field the form does not show (e.g. the missing class: 'Des données sont
 * manquantes pour satisfaire votre requète').
 */
export function contactFailure(
  error: unknown,
  formFields: readonly string[],
): { code: string; detail: string | null } {
  const other = fieldProblems(error).find((problem) => !formFields.includes(problem.field));
  return { code: errorCodeOf(error), detail: other?.key ?? null };
}
