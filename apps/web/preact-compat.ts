/**
 * Decision 0023: the web app runs on Preact (preact/compat) in place of React DOM, for the
 * ~50 kB (brotli) it takes off every first load. The code and its libraries (React Aria,
 * react-hook-form) keep importing `react`; the build and the unit
 * tests resolve those imports to Preact's compat layer, so the tests run on what ships.
 * Types stay React's (@types/react): preact/compat follows React 19's API.
 */
export const preactAlias = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

interface Patch {
  /** The text to find, once, in the file. */
  find: string;
  replace: string;
}

/**
 * Where React Aria counts on React DOM's behaviour rather than the DOM's, and what makes it hold
 * on Preact. Each `find` must occur exactly once: the build fails if a React Aria update moves
 * the code, rather than shipping a menu that throws or keys that do nothing.
 */
const PATCHES: { file: RegExp; why: string; patches: Patch[] }[] = [
  {
    // A menu's items are rendered through a portal into a stand-in document of React Aria's own
    // (collections/Document). React DOM creates and removes their nodes with
    // ownerDocument.createElement and parent.removeChild, which the stand-in has; Preact 11 calls
    // createElementNS and node.remove(), which it lacks (Preact declined to fall back:
    // preactjs/preact#4539), and the menu threw on opening. Each new method does what its
    // existing counterpart does.
    file: /\/react-aria\/dist\/private\/collections\/Document\.mjs$/,
    why: 'collection document',
    patches: [
      {
        find: 'createElement(type) {',
        replace:
          'createElementNS(_namespace, type) {\n        return this.createElement(type);\n    }\n    createElement(type) {',
      },
      // Its items say they are comment nodes (nodeType 8, for React DevTools' sake). Preact skips
      // comments when it places a node and reads their text: an item added to an open menu (the
      // teacher's "My classes", known a moment later) threw and never showed. They say element.
      {
        find: 'this.nodeType = 8 // COMMENT_NODE',
        replace: 'this.nodeType = 1 // ELEMENT_NODE for Preact (React Aria: COMMENT_NODE)',
      },
      {
        find: 'appendChild(child) {',
        replace:
          'remove() {\n        if (this.parentNode) this.parentNode.removeChild(this);\n    }\n    appendChild(child) {',
      },
    ],
  },
  {
    // useKeyboard (menus, dialogs' Escape, lists...) copies the event with {...e}. A React
    // synthetic event has its fields (key, target, shiftKey...) as own properties; a DOM event,
    // which Preact passes, has them on its prototype, so the copy had no `key` and no key did
    // anything. The copy takes every field the event has, own or inherited (enumerable or not:
    // Testing Library's user-event defines `key` on the event itself, unenumerable), methods
    // bound to the event.
    file: /\/react-aria\/dist\/private\/interactions\/createEventHandler\.mjs$/,
    why: 'keyboard event copy',
    patches: [
      {
        find: '...e,',
        replace:
          "...(()=>{ let copy = {}; for (let o = e; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) for (let name of Object.getOwnPropertyNames(o)) { if (name === 'constructor' || name in copy) continue; let value = e[name]; copy[name] = typeof value === 'function' ? value.bind(e) : value; } return copy; })(),",
      },
    ],
  },
  {
    // Not a Preact matter: React Aria works out its default locale when its i18n module is first
    // evaluated, and checks it with Intl.DateTimeFormat.supportedLocalesOf and Intl.Locale. Those
    // first Intl calls load ICU: a ~100 ms task at 4x CPU right after the first screen, when the
    // dialog code is fetched ahead (issue 11, decision 0030: no ICU on the way to the first
    // screen). French and English are always supported and written left to right; any other
    // language goes through React Aria's checks as before.
    file: /\/react-aria\/dist\/private\/i18n\/useDefaultLocale\.mjs$/,
    why: 'default locale without ICU',
    patches: [
      {
        find: '    try {\n        Intl.DateTimeFormat.supportedLocalesOf([',
        replace:
          "    if (/^(?:fr|en)(?:-|$)/i.test(locale)) return {\n        locale: locale,\n        direction: 'ltr'\n    };\n    try {\n        Intl.DateTimeFormat.supportedLocalesOf([",
      },
    ],
  },
  {
    // The same for an explicit locale: the app's own (components/ui/AriaLocale.tsx) goes through
    // isRTL, whose Intl.Locale would load ICU when a dialog's frame first renders, which a
    // screen may do closed on its first render. French and English are left to right.
    file: /\/react-aria\/dist\/private\/i18n\/utils\.mjs$/,
    why: 'text direction without ICU',
    patches: [
      {
        find: "    // If the Intl.Locale API is available, use it to get the locale's text direction.\n",
        replace:
          "    if (/^(?:fr|en)(?:-|$)/i.test(localeString)) return false;\n    // If the Intl.Locale API is available, use it to get the locale's text direction.\n",
      },
    ],
  },
];

/** Vite plugin (build and tests) applying PATCHES to React Aria's modules as they load. */
export function preactReactAriaPatches() {
  return {
    name: 'parcours:preact-react-aria-patches',
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      const path = id.split('?')[0] ?? id;
      const entry = PATCHES.find(({ file }) => file.test(path));
      if (!entry) return null;
      let patched = code;
      for (const { find, replace } of entry.patches) {
        if (patched.split(find).length !== 2) {
          throw new Error(`${id} (${entry.why}): expected "${find}" once, to patch it for Preact`);
        }
        patched = patched.replace(find, replace);
      }
      return { code: patched, map: null };
    },
  };
}
