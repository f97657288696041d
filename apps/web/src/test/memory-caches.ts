/**
 * The browser's CacheStorage, in memory, as far as the app and its worker's plugins use it. It
 * outlives a page as the browser's does (a test stubs it once over two module instances), and
 * `pageGoes()` stands for a page gone before its calls end: a cache deletion then never ends.
 */
export function memoryCaches() {
  const stores = new Map<string, Map<string, Response>>();
  let gone = false;
  const href = (key: RequestInfo | URL) =>
    new URL(typeof key === 'object' && 'url' in key ? key.url : String(key), 'http://localhost').href;
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, Response>();
    stores.set(name, store);
    return {
      put: async (key: RequestInfo | URL, response: Response) => void store.set(href(key), response),
      match: async (key: RequestInfo | URL) => store.get(href(key))?.clone(),
      delete: async (key: RequestInfo | URL) => store.delete(href(key)),
      keys: async () => [...store.keys()].map((url) => new Request(url)),
    };
  };
  const storage = {
    open,
    has: async (name: string) => stores.has(name),
    keys: async () => [...stores.keys()],
    delete: (name: string): Promise<boolean> =>
      gone ? new Promise<boolean>(() => undefined) : Promise.resolve(stores.delete(name)),
    match: async (key: RequestInfo | URL, options?: { cacheName?: string }) =>
      stores
        .get(options?.cacheName ?? '')
        ?.get(href(key))
        ?.clone(),
  };
  return {
    storage,
    /** Every key held, as `cache url`. */
    entries: () => [...stores].flatMap(([name, store]) => [...store.keys()].map((url) => `${name} ${url}`)),
    pageGoes: () => void (gone = true),
    nextPage: () => void (gone = false),
  };
}
