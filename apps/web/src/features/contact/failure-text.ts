import { normaliseError } from '../../lib/api-errors';

/**
 * docs/product.md §8 contact errors: the translated title of the code (UNDEFINED when unknown), and the
 * message key of a field the form does not show (e.g. the missing class: 'Des données sont
 * manquantes pour satisfaire votre requète'). Read from the normalised error object (§3).
 */
export function contactFailure(
  error: unknown,
  formFields: readonly string[],
): { code: string; detail: string | null } {
  const failure = normaliseError(error, formFields);
  const explained = failure.message !== `errors.${failure.code}.message`;
  return { code: failure.code, detail: explained ? failure.message : null };
}
