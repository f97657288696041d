import type { ContextAttributes } from '@parcours/domain/entities';

/** The Web App Manifest members we publish (https://www.w3.org/TR/appmanifest/). */
export interface WebAppManifest {
  id: string;
  name: string;
  short_name: string;
  description?: string;
  lang: string;
  dir: 'ltr';
  start_url: string;
  scope: string;
  display: 'standalone';
  orientation: 'any';
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

/** The app's own icons (apps/web/public), for tenants that brought none. */
const DEFAULT_ICONS: Record<'192x192' | '512x512', string> = {
  '192x192': '/pwa-192x192.png',
  '512x512': '/pwa-512x512.png',
};

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Launchers show about 12 characters under an icon: a longer name keeps its first word. */
export function shortName(name: string, metas: Record<string, string>): string {
  const chosen = metas['short-name'] ?? metas['application-name'];
  if (chosen?.trim()) return chosen.trim();
  if (name.length <= 12) return name;
  return name.split(/\s+/)[0] || name;
}

function imageType(src: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(src)?.[1]?.toLowerCase();
  if (ext === 'svg') return 'image/svg+xml';
  if (ext === 'webp') return 'image/webp';
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  // Stored files are served from /api/files/{id}/download (no extension): touch icons are PNG (docs/product.md §3).
  return 'image/png';
}

/**
 * The installable app of one tenant (docs/product.md §1, §3): its name, colours and touch icons, so the
 * home screen shows the tenant a learner signed in to, not a generic product. Colours the
 * tenant left out or stored malformed fall back to the app's own, which browsers accept.
 */
export function buildManifest(attributes: ContextAttributes): WebAppManifest {
  const { name, description, assets, metas, settings } = attributes;
  const colour = (value: string | undefined, fallback: string) =>
    value && HEX.test(value) ? value : fallback;
  const icons = (['192x192', '512x512'] as const).map((size) => {
    const src = assets.touchIcons[size] ?? DEFAULT_ICONS[size];
    // Plain "any" icons: a tenant's uploaded icon may not keep its mark in the maskable safe zone.
    return { src, sizes: size, type: imageType(src), purpose: 'any' };
  });
  return {
    id: '/',
    name,
    short_name: shortName(name, metas),
    ...(description ? { description } : {}),
    lang: settings.defaultLocale,
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: colour(metas['theme-color'] ?? assets.colors.primary, '#1d4ed8'),
    background_color: colour(assets.colors.background, '#ffffff'),
    icons,
  };
}
