/**
 * Inline styles of a screen drawn on the server (decision 0053). React writes a `style` prop as a
 * `style="…"` attribute in the HTML of `react-dom/server`, and a strict CSP (`style-src` without
 * 'unsafe-inline') blocks every such attribute. In the browser the same prop goes through the
 * CSSOM, which CSP does not govern. So the server moves each attribute into a data attribute and
 * one stylesheet of rules (allowed by its hash), and the app puts the text back through the CSSOM
 * (`element.style.cssText`) before React hydrates: the DOM is then the one React expects.
 *
 * The rules are `!important` so that, until then (and without JavaScript), they win as the inline
 * style did; once the app has put the style back and dropped the data attribute they match nothing.
 */

/** The attribute that carries a drawn element's style text until the app puts it back. */
export const DRAWN_STYLE_ATTRIBUTE = 'data-parcours-style';

/** A start tag: its name and its attributes, as the HTML serialisers of React and sanitize-html write them. */
const START_TAG =
  /<([a-zA-Z][^\s/>]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)(\s*\/?)>/g;
/** One attribute of a start tag (the tag's attribute part is exactly a sequence of these). */
const ATTRIBUTE = /(\s+)([^\s"'>/=]+)(?:(\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const NAMED: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** An attribute value as the browser reads it (the entities React and sanitize-html write). */
export function decodeAttribute(value: string): string {
  return value.replace(
    /&(?:#x([0-9a-f]+)|#([0-9]+)|([a-z]+));/gi,
    (whole, hex?: string, dec?: string, name?: string) => {
      const code = hex ? parseInt(hex, 16) : dec ? parseInt(dec, 10) : null;
      if (code !== null) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      return NAMED[name!.toLowerCase()] ?? whole;
    },
  );
}

/**
 * A rule for a style text, or null when the text cannot be written into a stylesheet as it is:
 * quotes or a backslash (the selector's string), braces, angle brackets or a comment (the rule's
 * end, the element's). Such a style still reaches the element (the app puts it back), only after
 * the script runs.
 */
export function drawnStyleRule(text: string): string | null {
  if (/["'\\{}<>\r\n]|\/\*/.test(text)) return null;
  const declarations = text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (/!\s*important$/i.test(part) ? part : `${part} !important`));
  if (declarations.length === 0) return null;
  return `[${DRAWN_STYLE_ATTRIBUTE}="${text}"]{${declarations.join(';')}}`;
}

/**
 * The markup with every `style` attribute renamed `data-parcours-style` (its value unchanged),
 * and the rules that draw those elements as their styles did (one per distinct text).
 */
export function hoistStyleAttributes(markup: string): { markup: string; css: string } {
  const rules = new Map<string, string | null>();
  const out = markup.replace(START_TAG, (tag, name: string, attributes: string, end: string) => {
    if (!/\sstyle\s*=/i.test(attributes)) return tag;
    const rewritten = attributes.replace(
      ATTRIBUTE,
      (
        attribute,
        space: string,
        attrName: string,
        equals?: string,
        dq?: string,
        sq?: string,
        bare?: string,
      ) => {
        if (attrName.toLowerCase() !== 'style' || equals === undefined) return attribute;
        const raw = dq ?? sq ?? bare ?? '';
        const text = decodeAttribute(raw);
        if (!rules.has(text)) rules.set(text, drawnStyleRule(text));
        const quoted = dq !== undefined ? `"${dq}"` : sq !== undefined ? `'${sq}'` : `"${raw}"`;
        return `${space}${DRAWN_STYLE_ATTRIBUTE}${equals}${quoted}`;
      },
    );
    return `<${name}${rewritten}${end}>`;
  });
  const css = [...rules.values()].filter((rule): rule is string => rule !== null).join('\n');
  return { markup: out, css };
}
