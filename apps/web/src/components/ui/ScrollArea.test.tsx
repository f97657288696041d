import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScrollArea } from './ScrollArea';

function widths(scroll: number, client: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scroll);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(client);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ScrollArea', () => {
  it('says nothing and takes no focus when its content fits', () => {
    widths(300, 300);
    render(
      <ScrollArea label="Prices">
        <table />
      </ScrollArea>,
    );
    expect(screen.queryByText(/scroll right/i)).toBeNull();
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('shows a hint and becomes a named, focusable region when its content is wider', () => {
    widths(900, 340);
    render(
      <ScrollArea label="Prices">
        <table />
      </ScrollArea>,
    );
    expect(screen.getByText(/scroll right to see it all/i)).toBeInTheDocument();
    const region = screen.getByRole('region', { name: /^Prices — Scroll right/ });
    expect(region).toHaveAttribute('tabindex', '0');
  });
});
