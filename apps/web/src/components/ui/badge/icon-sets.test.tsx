import { readFileSync } from 'node:fs';
import path from 'node:path';
import { render } from '@testing-library/react';
import { BadgeIcon, GENERAL_ICONS } from './badge-icons';
import { COMPETENCY_ICONS } from './competency-icons';
import { JOB_ICONS } from './job-icons';

const distinct = (set: Record<string, unknown>) => new Set(Object.values(set)).size;

/** The icon names the demo tenants give (tenant.yaml): each must draw from its own set. */
function demoIcons(kind: 'competencies' | 'categories'): string[] {
  const root = path.resolve(import.meta.dirname, '../../../../../../content/demo/tenants');
  return ['fr', 'en'].flatMap((tenant) => {
    const text = readFileSync(path.join(root, tenant, 'tenant.yaml'), 'utf8');
    const section = text.split(new RegExp(`^${kind}:`, 'm'))[1]?.split(/^\S/m)[0] ?? '';
    return [...section.matchAll(/icon: ([a-z0-9-]+)/g)].map((m) => m[1]!);
  });
}

describe('icon sets (docs/product.md §3)', () => {
  it.each([
    ['competency', COMPETENCY_ICONS, 60],
    ['job', JOB_ICONS, 50],
  ] as const)('the %s set has about %s distinct icons, each a drawing', (_name, set, about) => {
    expect(distinct(set)).toBeGreaterThanOrEqual(about - 5);
    expect(distinct(set)).toBeLessThanOrEqual(about + 10);
    for (const node of Object.values(set)) {
      expect(node.length).toBeGreaterThan(0);
      for (const [tag] of node)
        expect(['path', 'circle', 'rect', 'line', 'polyline', 'polygon', 'ellipse']).toContain(tag);
    }
  });

  it.each([
    ['competencies', COMPETENCY_ICONS],
    ['categories', JOB_ICONS],
  ] as const)('every icon the demo %s name is in its set', (kind, set) => {
    const names = demoIcons(kind);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(Object.keys(set)).toContain(name);
  });

  it('draws a name from the given set, and the star for a name it lacks', () => {
    const { container, rerender } = render(<BadgeIcon name="stethoscope" set={JOB_ICONS} />);
    expect(container.querySelector('svg')).toHaveAttribute('data-icon', 'stethoscope');
    expect(container.querySelectorAll('svg > *').length).toBe(JOB_ICONS.stethoscope!.length);
    rerender(<BadgeIcon name="stethoscope" set={COMPETENCY_ICONS} />);
    expect(container.querySelector('svg')).toHaveAttribute('data-icon', 'star');
    expect(container.querySelectorAll('svg > *').length).toBe(GENERAL_ICONS.star!.length);
  });
});
