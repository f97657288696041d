import { describe, expect, it } from 'vitest';
import { decodeAttribute, drawnStyleRule, hoistStyleAttributes } from './drawn-styles';

describe('hoistStyleAttributes', () => {
  it.each<[string, string, string]>([
    // [markup, markup after, rules]
    ['<p>no style</p>', '<p>no style</p>', ''],
    [
      '<span class="progress__fill" style="width:40%"></span>',
      '<span class="progress__fill" data-parcours-style="width:40%"></span>',
      '[data-parcours-style="width:40%"]{width:40% !important}',
    ],
    // React Aria's VisuallyHidden, twice: one rule.
    [
      '<span style="border:0;clip:rect(0 0 0 0)"><input/></span><b style="border:0;clip:rect(0 0 0 0)"></b>',
      '<span data-parcours-style="border:0;clip:rect(0 0 0 0)"><input/></span><b data-parcours-style="border:0;clip:rect(0 0 0 0)"></b>',
      '[data-parcours-style="border:0;clip:rect(0 0 0 0)"]{border:0 !important;clip:rect(0 0 0 0) !important}',
    ],
    // A custom property, a self-closing tag, other attributes kept in place.
    [
      '<input id="a" style="--columns:3;width:min(100%, 200px)" readonly/>',
      '<input id="a" data-parcours-style="--columns:3;width:min(100%, 200px)" readonly/>',
      '[data-parcours-style="--columns:3;width:min(100%, 200px)"]{--columns:3 !important;width:min(100%, 200px) !important}',
    ],
    // Text that looks like an attribute is text; an attribute value that ends in "style=" is a value.
    ['<p>a style="color:red"</p>', '<p>a style="color:red"</p>', ''],
    ['<img alt="x style=" src="/a.png">', '<img alt="x style=" src="/a.png">', ''],
    // Quotes in the text (React writes &quot;): renamed, but no rule (the app puts it back).
    [
      '<i style="font-family:&quot;A&quot;"></i>',
      '<i data-parcours-style="font-family:&quot;A&quot;"></i>',
      '',
    ],
    // What could end the rule or the element is never written into the stylesheet.
    [
      '<i style="color:red}body{color:blue"></i>',
      '<i data-parcours-style="color:red}body{color:blue"></i>',
      '',
    ],
    ['<i style="&lt;/style&gt;"></i>', '<i data-parcours-style="&lt;/style&gt;"></i>', ''],
    ['<i style=""></i>', '<i data-parcours-style=""></i>', ''],
    // Comments and text in between are left alone.
    [
      '<!-- --><div><!--$--><u style="top:1px">style="x"</u></div>',
      '<!-- --><div><!--$--><u data-parcours-style="top:1px">style="x"</u></div>',
      '[data-parcours-style="top:1px"]{top:1px !important}',
    ],
  ])('%s', (markup, after, css) => {
    const hoisted = hoistStyleAttributes(markup);
    expect(hoisted.markup).toBe(after);
    expect(hoisted.css).toBe(css);
  });
});

describe('drawnStyleRule and decodeAttribute', () => {
  it.each<[string, string | null]>([
    ['width:1px', '[data-parcours-style="width:1px"]{width:1px !important}'],
    ['width:1px !important', '[data-parcours-style="width:1px !important"]{width:1px !important}'],
    [' ; ', null],
    ['a:b/*', null],
    ["font:'x'", null],
    ['a:b\\', null],
  ])('%j → %j', (text, rule) => {
    expect(drawnStyleRule(text)).toBe(rule);
  });

  it.each<[string, string]>([
    ['a&amp;b', 'a&b'],
    ['&quot;&#x27;&#39;&lt;&gt;', `"''<>`],
    ['&unknown;', '&unknown;'],
    ['&#99999999;', '&#99999999;'],
  ])('%j → %j', (raw, text) => {
    expect(decodeAttribute(raw)).toBe(text);
  });
});
