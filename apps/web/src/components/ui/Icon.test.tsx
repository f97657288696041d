import { render } from '@testing-library/react';
import { Icon, type IconName } from './Icon';

const NAMES: IconName[] = ['document', 'paperclip', 'calculator', 'lightbulb', 'clock'];

describe('icon', () => {
  it.each(NAMES)('draws "%s" as a decorative inline svg', (name) => {
    const { container } = render(<Icon name={name} />);
    const svg = container.querySelector('svg');
    expect(svg).not.toBeNull();
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg).toHaveAttribute('focusable', 'false');
    expect(svg).toHaveAttribute('viewBox', '0 0 24 24');
    expect(svg).toHaveAttribute('width', '1em');
    expect(svg).toHaveAttribute('stroke', 'currentColor');
    expect(svg).toHaveClass('icon');
    expect(svg?.querySelectorAll('path, rect, circle, line, polyline').length).toBeGreaterThan(0);
    // No emoji or other text left for a missing font to show as an empty box.
    expect(svg?.textContent).toBe('');
  });

  it('draws a different shape for each name', () => {
    const drawings = NAMES.map((name) => render(<Icon name={name} />).container.innerHTML);
    expect(new Set(drawings).size).toBe(NAMES.length);
  });

  it('adds the given class', () => {
    const { container } = render(<Icon name="document" className="extra" />);
    expect(container.querySelector('svg')).toHaveAttribute('class', 'icon extra');
  });
});
