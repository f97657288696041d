/**
 * Tenant branding (docs/product.md §1): colours as CSS variables, favicon and theme colour. Tenants pick
 * their colours freely, so text colours drawn from them are adjusted until they reach WCAG AA
 * contrast (4.5:1) on the page background: accessibility must not depend on the brand.
 */
import type { ContextAssets } from '@parcours/domain/entities';
import { splashLinks } from '../features/install/splash';
import { afterFirstScreen } from './after-first-screen';

type Rgb = [number, number, number];

export function parseHex(colour: string | null | undefined): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour?.trim() ?? '');
  if (!match?.[1]) return null;
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb): string =>
  `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: Rgb): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [17, 24, 39];

/** Black-ish or white, whichever reads better on `background`. */
export function readableOn(background: Rgb): Rgb {
  return contrastRatio(background, WHITE) >= contrastRatio(background, INK) ? WHITE : INK;
}

/** `colour` darkened (or lightened on dark pages) just enough to reach `target` contrast on `against`. */
export function ensureContrast(colour: Rgb, against: Rgb, target = 4.5): Rgb {
  const towards: Rgb = luminance(against) > 0.5 ? [0, 0, 0] : WHITE;
  let current = colour;
  for (let step = 0; step < 20 && contrastRatio(current, against) < target; step++) {
    current = current.map((v, i) => v + (towards[i]! - v) * 0.12) as Rgb;
  }
  return current;
}

export interface BrandPalette {
  [cssVariable: string]: string;
}

/** The CSS variables for a tenant's colours; unknown or invalid colours keep the defaults. */
export function brandPalette(colors: ContextAssets['colors'] | undefined): BrandPalette {
  const palette: BrandPalette = {};
  const background = parseHex(colors?.background) ?? WHITE;
  if (colors?.background && parseHex(colors.background)) palette['--color-bg'] = toHex(background);
  const text = parseHex(colors?.text);
  if (text) palette['--color-text'] = toHex(ensureContrast(text, background, 7));
  for (const name of ['primary', 'secondary', 'accent'] as const) {
    const rgb = parseHex(colors?.[name]);
    if (!rgb) continue;
    palette[`--color-${name}`] = toHex(rgb);
    palette[`--color-on-${name}`] = toHex(readableOn(rgb));
    palette[`--color-${name}-text`] = toHex(ensureContrast(rgb, background));
  }
  return palette;
}

function setLink(rel: string, href: string): void {
  let link = document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`);
  if (!link) {
    link = document.createElement('link');
    link.rel = rel;
    document.head.appendChild(link);
  }
  link.removeAttribute('type');
  link.href = href;
}

function setMeta(name: string, content: string): void {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = name;
    document.head.appendChild(meta);
  }
  meta.content = content;
}

/**
 * What iOS reads when a learner adds the app to the home screen (it ignores the manifest's
 * icons and has no splash of its own): the tenant's touch icon, name and a launch screen per
 * device size (docs/product.md §3). Replaced as a whole, so a tenant switch leaves no stale picture.
 */
function applyHomeScreen(assets: ContextAssets | undefined, name: string | undefined): void {
  const touch = assets?.touchIcons?.['192x192'] ?? assets?.touchIcons?.['512x512'];
  if (touch) setLink('apple-touch-icon', touch);
  if (name) setMeta('apple-mobile-web-app-title', name);
  document.head.querySelectorAll('link[rel="apple-touch-startup-image"]').forEach((link) => link.remove());
  for (const { href, media } of splashLinks(assets?.splashScreens)) {
    const link = document.createElement('link');
    link.rel = 'apple-touch-startup-image';
    link.media = media;
    link.href = href;
    document.head.appendChild(link);
  }
}

/**
 * Once the first screen is painted (decision 0030): the tenant's manifest (served per Host by
 * the API), for installing the app (issue 12), and the default tab icon in place of index.html's
 * empty one (a tenant's own icon follows with its branding).
 */
export function linkInstallAssets(): void {
  setLink('manifest', '/manifest.webmanifest');
  setLink('icon', '/favicon.svg');
}

export function applyBranding(assets: ContextAssets | undefined, name?: string): void {
  const root = document.documentElement;
  for (const [variable, value] of Object.entries(brandPalette(assets?.colors)))
    root.style.setProperty(variable, value);
  // Issue 11 (decision 0030): the browser fetches the tab's icon and the home-screen pictures as
  // soon as their links change; after the first screen's paint they no longer share a slow
  // phone's network with that screen's code and data. The colours cannot wait.
  void afterFirstScreen()
    .then(() => {
      // The page may be gone by then (a test's document torn down).
      if (typeof document === 'undefined') return;
      if (assets?.favicon) setLink('icon', assets.favicon);
      applyHomeScreen(assets, name);
    })
    .catch(() => undefined);
  const primary = parseHex(assets?.colors?.primary);
  const theme = document.head.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (primary && theme) theme.content = toHex(primary);
}
