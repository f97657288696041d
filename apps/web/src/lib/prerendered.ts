/**
 * The server's HTML of the sign-in screen (decision 0026) is a real form: a learner on a slow
 * phone may type into it before the app starts. The app renders over those same nodes; what was
 * typed is kept here first, so the form's state starts from it and the render leaves it in place.
 */
const ROOT_MARK = 'prerendered';
let typed: Record<string, string> | null = null;

/** Whether `root` holds the server's sign-in screen (the API marks `#root`). */
export function isPrerendered(root: HTMLElement): boolean {
  return root.dataset[ROOT_MARK] === 'sign-in';
}

/** Called once before the app's first render: keeps the values typed in the server's form. */
export function keepTypedValues(root: HTMLElement): void {
  typed = {};
  for (const input of root.querySelectorAll<HTMLInputElement>('form input[name]')) {
    if (input.value) typed[input.name] = input.value;
  }
}

/** After the first render: the app's markup is the app's own (ends the signed-in hiding rule). */
export function endPrerender(root: HTMLElement): void {
  delete root.dataset[ROOT_MARK];
}

/** What was typed in the field `name` before the app started, once; '' when nothing. */
export function takeTypedValue(name: string): string {
  const value = typed?.[name] ?? '';
  if (typed) delete typed[name];
  return value;
}
