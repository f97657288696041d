/**
 * The server's HTML of the sign-in screen (decision 0026) is a real form: a learner on a slow
 * phone may type into it before the app starts. React hydrates those same nodes; the form's state
 * starts from what they hold when the form hydrates, so the hydration leaves the text (and the
 * focus) in place.
 *
 * The form hydrates after the root: the route's screen sits in a Suspense boundary, which React
 * hydrates in a pass of its own once the root has committed. So the form itself says when it has
 * taken over (`endPrerender`), not the root.
 */
const ROOT_MARK = 'prerendered';
let prerenderedRoot: HTMLElement | null = null;
const taken = new Set<string>();

/** Whether `root` holds the server's sign-in screen (the API marks `#root`). */
export function isPrerendered(root: HTMLElement): boolean {
  return root.dataset[ROOT_MARK] === 'sign-in';
}

/** Called before the hydration: the form's fields are read from `root` when the form hydrates. */
export function keepTypedValues(root: HTMLElement): void {
  prerenderedRoot = root;
}

/**
 * Once the form is hydrated: the markup is the app's own (ends index.html's rule for a stored
 * token and the early script's hold on the server's form submits).
 */
export function endPrerender(root: HTMLElement | null = prerenderedRoot): void {
  prerenderedRoot = null;
  if (root) delete root.dataset[ROOT_MARK];
}

/** What is typed in the server's field `name` while the app hydrates it, once; '' when nothing. */
export function takeTypedValue(name: string): string {
  if (taken.has(name)) return '';
  taken.add(name);
  const input = prerenderedRoot?.querySelector<HTMLInputElement>(`form input[name="${name}"]`);
  return input?.value ?? '';
}

/**
 * A submit of the server's form held by the early script (app/early-start.ts) before the app's
 * handler was there: kept on `window` (the early script is a bundle of its own), sent by the form
 * once it has taken over, so Enter pressed early is not lost (issue 37).
 */
const HELD_SUBMIT_GLOBAL = '__parcoursHeldSubmit';
type HeldSubmitWindow = { [HELD_SUBMIT_GLOBAL]?: boolean };

export function holdSubmit(): void {
  (window as HeldSubmitWindow)[HELD_SUBMIT_GLOBAL] = true;
}

/** Whether a submit was held, once. */
export function takeHeldSubmit(): boolean {
  const held = (window as HeldSubmitWindow)[HELD_SUBMIT_GLOBAL] === true;
  delete (window as HeldSubmitWindow)[HELD_SUBMIT_GLOBAL];
  return held;
}
