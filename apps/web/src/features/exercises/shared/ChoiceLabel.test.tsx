import { render } from '@testing-library/react';
import { ChoiceLabel } from './ChoiceLabel';

const picture = { id: 'f1', name: 'cat.png', url: '/api/files/f1/download?sig=1' };

/** Row settings showDescriptionIfImage and returnToLineAfterImage (docs/product.md §3) on a choice's label. */
describe('ChoiceLabel row settings', () => {
  it.each([
    // [case, choice, settings, visible text, picture's alt, stacked]
    ['text only', { value: '<p>A cat</p>' }, {}, 'A cat', null, false],
    [
      'picture, no setting: the text names the picture',
      { value: 'A cat', appFile: picture },
      {},
      '',
      'A cat',
      false,
    ],
    [
      'picture with showDescriptionIfImage: text beside a decorative picture',
      { value: 'A cat', appFile: picture },
      { showDescriptionIfImage: true },
      'A cat',
      '',
      false,
    ],
    [
      'and returnToLineAfterImage: the text under the picture',
      { value: 'A cat', appFile: picture },
      { showDescriptionIfImage: true, returnToLineAfterImage: true },
      'A cat',
      '',
      true,
    ],
    [
      'returnToLineAfterImage alone: no text to put under it',
      { value: 'A cat', appFile: picture },
      { returnToLineAfterImage: true },
      '',
      'A cat',
      false,
    ],
    ['a picture without text: named by its file', { value: '', appFile: picture }, {}, '', 'cat.png', false],
  ])('%s', (_case, choice, settings, text, alt, stacked) => {
    const { container } = render(<ChoiceLabel choice={choice} settings={settings} />);
    const label = container.querySelector('.choice-label')!;
    expect(label.textContent).toBe(text);
    const img = container.querySelector('img');
    if (alt === null) expect(img).toBeNull();
    else expect(img).toHaveAttribute('alt', alt);
    expect(label.classList.contains('choice-label--stacked')).toBe(stacked);
  });
});
