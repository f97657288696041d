import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineStyleSources, LIBRARY_STYLE_TEXTS, styleTextSources } from '../../src/plugins/page-styles';

/**
 * Issue 37: opening the user menu broke the CSP, because React Aria's usePress adds a `<style>`
 * whose hash `style-src` lacked. index.html now holds that rule under the id usePress looks for
 * (so it adds nothing), and the one style React Aria adds that cannot live there is allowed by
 * its hash (page-styles.ts). Both hang on the library's own text: these fail when an upgrade
 * changes it, before a browser refuses it.
 */
const reactAria = path.dirname(createRequire(import.meta.url).resolve('react-aria/package.json'));
const source = (file: string) => readFileSync(path.join(reactAria, 'dist/private', file), 'utf8');
const indexHtml = readFileSync(path.resolve(__dirname, '../../../web/index.html'), 'utf8');

describe("React Aria's own <style> elements under our CSP", () => {
  it("index.html holds usePress's rule under the id usePress looks for", () => {
    const press = source('interactions/usePress.mjs');
    const id = /STYLE_ID = '([^']+)'/.exec(press)?.[1];
    expect(id).toBe('react-aria-pressable-style');
    // usePress adds its element only when no element of that id is in the document.
    expect(press).toMatch(/getElementById\([^)]*STYLE_ID\)\) return;/);
    const element = new RegExp(`<style id="${id}">([\\s\\S]*?)</style>`).exec(indexHtml);
    expect(element).not.toBeNull();
    const rule = (css: string) => css.replace(/\s+/g, '');
    const injected = /style\.textContent = `([\s\S]*?)`\.trim\(\)/.exec(press)?.[1] ?? '';
    const attribute = /PRESSABLE_ATTRIBUTE = '([^']+)'/.exec(press)?.[1] ?? '';
    expect(rule(element![1]!)).toBe(rule(injected.replace(/\$\{[^}]*PRESSABLE_ATTRIBUTE\}/, attribute)));
    // And the CSP allows that element by its hash, as it reads index.html's styles (a "<style>"
    // written in a comment once made it hash the wrong text).
    expect(inlineStyleSources(indexHtml)).toContain(styleTextSources([element![1]!])[0]);
  });

  it("allows usePreventScroll's rule by the hash of the exact text it adds", () => {
    const prevent = source('overlays/usePreventScroll.mjs');
    const texts = [...prevent.matchAll(/style\.textContent = `([\s\S]*?)`\.trim\(\)/g)].map((m) =>
      m[1]!.trim(),
    );
    expect(texts.length).toBeGreaterThan(0);
    expect([...LIBRARY_STYLE_TEXTS].sort()).toEqual([...new Set(texts)].sort());
  });
});
