/**
 * docs/product.md §8 "only logged, never shown": a problem of content or data the learner can do
 * nothing about (an invalid module address, a video that fails to load, a missing category or
 * file, a missing class when loading teachers). It goes to the console for whoever looks into it;
 * the screen goes on without the missing part.
 */
export function logOnly(problem: string, ...details: unknown[]): void {
  console.warn(`[only logged] ${problem}`, ...details);
}
