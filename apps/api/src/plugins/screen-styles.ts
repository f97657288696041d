/**
 * A signed-in first screen's stylesheets in its HTML (issue 11). The web build lists, per
 * signed-in route, the stylesheets its first screen needs beyond the entry's
 * (`dist/.vite/first-screens.json`, apps/web/vite-early-start.ts); the server puts them in that
 * route's page as one `<style>`, so a slow phone waits for no stylesheet request (each one takes
 * one of six connections and a round trip before the screen can paint). Each file is also named
 * by a disabled `<link>`: Vite's preload helper then sees it as present and never fetches it,
 * and a disabled link is neither fetched nor applied (the same as the entry's, decision 0024).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ScreenStyles {
  /** Pathnames of the route (the RegExp source the build wrote). */
  path: RegExp;
  /**
   * The disabled links, right after `<meta charset>`: before index.html's inline script, which
   * then does not preload these files (app/early-start.ts).
   */
  links: string;
  /** The rules, before `</head>`: after the entry's inline styles, as the cascade had them. */
  style: string;
}

const CHARSET = '<meta charset="UTF-8" />';

interface FirstScreens {
  routes: { path: string; css: string[] }[];
}

/** The build's list, read once at start; empty without a build or with an unreadable one. */
export function loadScreenStyles(webDist: string): ScreenStyles[] {
  const file = path.join(webDist, '.vite', 'first-screens.json');
  if (!existsSync(file)) return [];
  try {
    const { routes } = JSON.parse(readFileSync(file, 'utf8')) as FirstScreens;
    return routes.flatMap((route) => {
      const css = route.css.filter((name) => /^assets\/[\w.-]+\.css$/.test(name));
      const rules = css.map((name) => readFileSync(path.join(webDist, name), 'utf8').trim()).join('\n');
      // The build's own CSS, never tenant text; a stylesheet that could close its element is skipped.
      if (!rules || /<\/style/i.test(rules)) return [];
      const links = styleLinks(css);
      return [{ path: new RegExp(route.path), links, style: `<style>${rules}</style>\n  ` }];
    });
  } catch {
    return [];
  }
}

/** A disabled link naming each stylesheet (build file names under the build's root). */
export function styleLinks(files: string[]): string {
  return files.map((name) => `<link rel="stylesheet" href="/${name}" disabled />`).join('\n    ');
}

/** The page with `links` right after `<meta charset>`, before the inline script. */
export function withStyleLinks(html: string, links: string): string {
  if (!links || !html.includes(CHARSET)) return html;
  return html.replace(CHARSET, () => `${CHARSET}\n    ${links}`);
}

/** index.html with a route's styles (unchanged without one, or without its markers). */
export function withScreenStyles(indexHtml: string, styles: ScreenStyles | undefined): string {
  if (!styles || !indexHtml.includes('</head>') || !indexHtml.includes(CHARSET)) return indexHtml;
  return withStyleLinks(indexHtml, styles.links).replace('</head>', () => `${styles.style}</head>`);
}
