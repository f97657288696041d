import { hoistStyleAttributes } from '@parcours/domain/drawn-styles';
import { describe, expect, it } from 'vitest';
import { restoreDrawnStyles } from './drawn-styles';

describe('restoreDrawnStyles', () => {
  it("puts a drawn screen's styles back on their elements, as React drew them, and drops the data attribute", () => {
    const drawn =
      '<div><span class="fill" style="width:40%"></span><p>text</p><i style="--columns:3"></i></div>';
    const root = document.createElement('div');
    root.innerHTML = hoistStyleAttributes(drawn).markup;
    expect(root.querySelector('[style]')).toBeNull();
    restoreDrawnStyles(root);
    expect(root.querySelector('[data-parcours-style]')).toBeNull();
    expect(root.querySelector<HTMLElement>('.fill')!.style.width).toBe('40%');
    expect(root.querySelector('i')!.style.getPropertyValue('--columns')).toBe('3');
    expect(root.querySelector('p')!.hasAttribute('style')).toBe(false);
  });
});
