/**
 * Everything the app keeps in the browser's storage, behind one small API so logout can clear it
 * all except the tenant context (docs/product.md §4), and so private-mode browsers that throw on storage
 * access degrade to "nothing remembered" instead of crashing.
 */

const PREFIX = 'parcours.';

export const STORAGE_KEYS = {
  token: `${PREFIX}token`,
  userId: `${PREFIX}userId`,
  returnUrl: `${PREFIX}returnUrl`,
  context: `${PREFIX}context`,
  browserNoticeDismissed: `${PREFIX}browserNoticeDismissed`,
  /** docs/product.md §7: the active class and lesson of the dashboard, in session storage. */
  activeLesson: `${PREFIX}activeLesson`,
  /** docs/product.md §9: the install prompt was refused (or the app installed): never offered again. */
  dontShowAddToPhone: `${PREFIX}dontShowAddToPhone`,
  /** The install prompt was offered in this tab (session storage). */
  installOffered: `${PREFIX}installOffered`,
  /** The lesson the learner last played, any tab (the home's resume card, issue 12). */
  lastLesson: `${PREFIX}lastLesson`,
  /**
   * A session's end began clearing the device's copies and has not finished (decision 0045): set
   * before the clearing starts, removed once it is done, finished at the next start otherwise.
   */
  forgetPending: `${PREFIX}forgetPending`,
} as const;

function safe<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}

function local(): Storage | null {
  return safe(() => window.localStorage, null);
}
function session(): Storage | null {
  return safe(() => window.sessionStorage, null);
}

function read(store: Storage | null, key: string): string | null {
  return safe(() => store?.getItem(key) ?? null, null);
}
function write(store: Storage | null, key: string, value: string | null): void {
  safe(() => (value === null ? store?.removeItem(key) : store?.setItem(key, value)), undefined);
}

export const getToken = (): string | null => read(local(), STORAGE_KEYS.token);
export const setToken = (token: string | null): void => write(local(), STORAGE_KEYS.token, token);
export const getUserId = (): string | null => read(local(), STORAGE_KEYS.userId);
export const setUserId = (id: string | null): void => write(local(), STORAGE_KEYS.userId, id);
export const getReturnUrl = (): string | null => read(local(), STORAGE_KEYS.returnUrl);
export const setReturnUrl = (url: string | null): void => write(local(), STORAGE_KEYS.returnUrl, url);
export const getStoredContext = (): string | null => read(local(), STORAGE_KEYS.context);
export const setStoredContext = (json: string | null): void => write(local(), STORAGE_KEYS.context, json);
export const isBrowserNoticeDismissed = (): boolean =>
  read(local(), STORAGE_KEYS.browserNoticeDismissed) === '1';
export const dismissBrowserNotice = (): void => write(local(), STORAGE_KEYS.browserNoticeDismissed, '1');

export const getDontShowAddToPhone = (): boolean => read(local(), STORAGE_KEYS.dontShowAddToPhone) === '1';
export const setDontShowAddToPhone = (): void => write(local(), STORAGE_KEYS.dontShowAddToPhone, '1');
export const wasInstallOffered = (): boolean => read(session(), STORAGE_KEYS.installOffered) === '1';
export const markInstallOffered = (): void => write(session(), STORAGE_KEYS.installOffered, '1');

export const isForgetPending = (): boolean => read(local(), STORAGE_KEYS.forgetPending) === '1';
export const setForgetPending = (pending: boolean): void =>
  write(local(), STORAGE_KEYS.forgetPending, pending ? '1' : null);

export const getLastLesson = (): string | null => read(local(), STORAGE_KEYS.lastLesson);
export const setLastLesson = (lessonId: string): void => write(local(), STORAGE_KEYS.lastLesson, lessonId);

export interface ActiveLesson {
  classId: string;
  lessonId: string | null;
}

export function getActiveLesson(): ActiveLesson | null {
  const raw = read(session(), STORAGE_KEYS.activeLesson);
  if (!raw) return null;
  const parsed = safe<unknown>(() => JSON.parse(raw), null);
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { classId, lessonId } = parsed as Record<string, unknown>;
  if (typeof classId !== 'string') return null;
  return { classId, lessonId: typeof lessonId === 'string' ? lessonId : null };
}

export function setActiveLesson(value: ActiveLesson | null): void {
  write(session(), STORAGE_KEYS.activeLesson, value === null ? null : JSON.stringify(value));
}

/**
 * docs/product.md §4 logout: forget everything but the tenant context, which the next sign-in needs, and
 * the device's refusal of the install prompt (docs/product.md §9), which is about the phone, not the user.
 */
export function clearAllExceptContext(): void {
  const context = getStoredContext();
  const dontShowAddToPhone = getDontShowAddToPhone();
  // The device's API base path (docs/product.md §7) is configuration, like the context: it stays.
  const apiBasePath = safe(() => local()?.getItem(`${PREFIX}apiBasePath`) ?? null, null);
  safe(() => local()?.clear(), undefined);
  safe(() => session()?.clear(), undefined);
  if (context !== null) setStoredContext(context);
  if (dontShowAddToPhone) setDontShowAddToPhone();
  if (apiBasePath !== null) write(local(), `${PREFIX}apiBasePath`, apiBasePath);
}
