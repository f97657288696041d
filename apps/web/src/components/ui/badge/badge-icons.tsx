import { createElement } from 'react';
import { ShieldCheck, Star } from 'lucide';
import type { IconNode, IconSet } from './icon-node';

/**
 * The general icons of a badge (docs/product.md §3 "a general set"): the fallback star and the
 * certification mark. The competency and job sets (competency-icons.ts, job-icons.ts) are given by
 * the tab that draws them, so each tab's chunk carries only its own set.
 */
export const GENERAL_ICONS: IconSet = { star: Star, certified: ShieldCheck };

/** A picture path (`/…`, `http…`, `data:`) is shown as an image; a name draws from the set. */
export function isIconUrl(icon: string): boolean {
  return /^(\/|https?:|data:)/.test(icon);
}

/** Whether a set draws this name itself (else the star stands in). */
export function hasIcon(set: IconSet | undefined, name: string): boolean {
  return Boolean(set && Object.hasOwn(set, name));
}

function shapes(node: IconNode) {
  return node.map(([tag, attrs], i) => createElement(tag, { ...attrs, key: i }));
}

export function BadgeIcon({ name, set, className }: { name: string; set?: IconSet; className?: string }) {
  const node =
    (set && hasIcon(set, name) ? set[name] : undefined) ?? GENERAL_ICONS[name] ?? GENERAL_ICONS.star!;
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      data-icon={set && hasIcon(set, name) ? name : GENERAL_ICONS[name] ? name : 'star'}
    >
      {shapes(node)}
    </svg>
  );
}
