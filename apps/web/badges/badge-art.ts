/**
 * The vector sources of the badge pictures (SPEC §3 "Badge display", §7): one SVG per kind,
 * level and size, drawn from the lists in packages/domain/src/badges.ts. vite-badges.ts
 * rasterises them to PNG during the build, so no binary picture is kept in the repository.
 *
 * The pictures hold no text (a rasteriser's fonts differ between machines); the number or the
 * icon a badge shows is drawn by the web component over the picture.
 */
import type { BadgeLevelName, BadgeSize, BadgeType } from '../../../packages/domain/src/badges';

interface Palette {
  /** Light, main and dark tones of the metal. */
  light: string;
  main: string;
  dark: string;
}

const PALETTES: Record<BadgeLevelName, Palette> = {
  none: { light: '#f2f4f7', main: '#d0d5dd', dark: '#98a2b3' },
  bronze: { light: '#f6c89a', main: '#c47a3a', dark: '#7a4216' },
  silver: { light: '#ffffff', main: '#bfc6d1', dark: '#6b7280' },
  gold: { light: '#fff1a8', main: '#e0b12a', dark: '#8a6100' },
  xp: { light: '#c7d7fe', main: '#4f6ef7', dark: '#1d2f9e' },
  certification: { light: '#d1e0ff', main: '#2f5bd3', dark: '#102a7a' },
  attestation: { light: '#ccfbef', main: '#159a80', dark: '#0b5345' },
};

/** A metal gradient from top left to bottom right, shared by every shape. */
function defs(p: Palette): string {
  return `<defs>
  <linearGradient id="metal" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${p.light}"/>
    <stop offset="0.55" stop-color="${p.main}"/>
    <stop offset="1" stop-color="${p.dark}"/>
  </linearGradient>
  <radialGradient id="face" cx="0.4" cy="0.35" r="0.7">
    <stop offset="0" stop-color="${p.light}"/>
    <stop offset="1" stop-color="${p.main}"/>
  </radialGradient>
</defs>`;
}

function ribbons(p: Palette): string {
  return `<path d="M34 58 L22 96 L36 90 L44 100 L52 66 Z" fill="${p.dark}"/>
<path d="M66 58 L78 96 L64 90 L56 100 L48 66 Z" fill="${p.main}"/>`;
}

/** Level badge: a round medal; the larger sizes hang from ribbons. */
function medal(p: Palette, size: BadgeSize): string {
  const r = size === 'sm' ? 46 : 36;
  const cy = size === 'sm' ? 50 : 40;
  return `${size === 'sm' ? '' : ribbons(p)}
<circle cx="50" cy="${cy}" r="${r}" fill="url(#metal)" stroke="${p.dark}" stroke-width="3"/>
<circle cx="50" cy="${cy}" r="${r - 8}" fill="url(#face)" stroke="${p.dark}" stroke-opacity="0.5" stroke-width="2"/>
${size === 'xl' ? `<circle cx="50" cy="${cy}" r="${r - 4}" fill="none" stroke="${p.light}" stroke-width="1.5" stroke-dasharray="3 3"/>` : ''}`;
}

/** Theme (job) badge: a hexagonal shield. */
function hexagon(p: Palette, size: BadgeSize): string {
  const pts = (r: number) =>
    Array.from({ length: 6 }, (_, i) => {
      const a = (Math.PI / 3) * i - Math.PI / 2;
      return `${(50 + r * Math.cos(a)).toFixed(2)},${(50 + r * Math.sin(a)).toFixed(2)}`;
    }).join(' ');
  return `<polygon points="${pts(47)}" fill="url(#metal)" stroke="${p.dark}" stroke-width="3" stroke-linejoin="round"/>
<polygon points="${pts(38)}" fill="url(#face)" stroke="${p.dark}" stroke-opacity="0.5" stroke-width="2" stroke-linejoin="round"/>
${size === 'xl' ? `<polygon points="${pts(42.5)}" fill="none" stroke="${p.light}" stroke-width="1.5" stroke-dasharray="3 3"/>` : ''}`;
}

/** XP badge: a disc with a star burst; at xl the component draws its progress ring around it. */
function points(p: Palette, size: BadgeSize): string {
  const r = size === 'xl' ? 40 : 47;
  const rays = Array.from({ length: 12 }, (_, i) => {
    const a = (Math.PI / 6) * i;
    const x = (d: number) => (50 + d * Math.cos(a)).toFixed(2);
    const y = (d: number) => (50 + d * Math.sin(a)).toFixed(2);
    return `<line x1="${x(r - 14)}" y1="${y(r - 14)}" x2="${x(r - 4)}" y2="${y(r - 4)}" stroke="${p.light}" stroke-opacity="0.6" stroke-width="3" stroke-linecap="round"/>`;
  }).join('');
  return `<circle cx="50" cy="50" r="${r}" fill="url(#metal)" stroke="${p.dark}" stroke-width="3"/>
${size === 'sm' ? '' : rays}
<circle cx="50" cy="50" r="${r - 17}" fill="url(#face)"/>`;
}

/** Certification badge: a scalloped rosette (a seal) with ribbons. */
function rosette(p: Palette, size: BadgeSize): string {
  const cy = size === 'sm' ? 50 : 42;
  const outer = size === 'sm' ? 48 : 40;
  const n = 16;
  const path = Array.from({ length: n * 2 }, (_, i) => {
    const a = (Math.PI / n) * i - Math.PI / 2;
    const d = i % 2 === 0 ? outer : outer - 6;
    return `${i === 0 ? 'M' : 'L'}${(50 + d * Math.cos(a)).toFixed(2)} ${(cy + d * Math.sin(a)).toFixed(2)}`;
  }).join(' ');
  return `${size === 'sm' ? '' : ribbons(p)}
<path d="${path} Z" fill="url(#metal)" stroke="${p.dark}" stroke-width="2" stroke-linejoin="round"/>
<circle cx="50" cy="${cy}" r="${outer - 13}" fill="url(#face)" stroke="${p.dark}" stroke-opacity="0.5" stroke-width="2"/>
<path d="M${50 - 9} ${cy} l6 7 l13 -14" fill="none" stroke="${p.dark}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>`;
}

const SHAPES: Record<BadgeType, (p: Palette, size: BadgeSize) => string> = {
  level: medal,
  theme: hexagon,
  PI: points,
  certification: rosette,
};

/** The SVG source of one badge picture, on a 100-unit square. */
export function badgeSvg(type: BadgeType, level: BadgeLevelName, size: BadgeSize): string {
  const palette = PALETTES[level];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
${defs(palette)}
${level === 'none' ? `<g opacity="0.5">${SHAPES[type](palette, size)}</g>` : SHAPES[type](palette, size)}
</svg>`;
}
