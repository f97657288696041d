import { act, screen } from '@testing-library/react';
import { createRef } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Footer } from './Footer';

const footer = () => (
  <Footer
    block={null}
    canPrevious={false}
    busy={false}
    onPrevious={() => undefined}
    onNext={() => undefined}
    onDashboard={() => undefined}
    fullscreenTarget={createRef<HTMLElement>()}
  />
);

/** A browser that supports full screen or not, for the hydration that follows the drawn page. */
function withFullscreen(enabled: boolean) {
  Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, get: () => enabled });
}

describe('the player footer drawn on the server, then hydrated (decision 0046)', () => {
  afterEach(() => {
    Reflect.deleteProperty(document, 'fullscreenEnabled');
    document.body.innerHTML = '';
  });

  it('is drawn with its full-screen button, so hydrating in a browser that has one moves nothing', async () => {
    const html = renderToString(footer());
    expect(html).toContain('Full screen');
    withFullscreen(true);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const drawn = container.querySelector('.player-footer__end')!.innerHTML;
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, footer(), { onRecoverableError: (error) => errors.push(error) });
    });
    expect(errors).toEqual([]);
    // The very nodes the server drew: nothing added, nothing moved.
    expect(container.querySelector('.player-footer__end')!.innerHTML).toBe(drawn);
    expect(screen.getByRole('button', { name: /Full screen/ })).toBeInTheDocument();
  });

  it('drops the button after hydration where full screen is not supported, without a mismatch', async () => {
    const html = renderToString(footer());
    withFullscreen(false);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, footer(), { onRecoverableError: (error) => errors.push(error) });
    });
    expect(errors).toEqual([]);
    expect(screen.queryByRole('button', { name: /Full screen/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Next/ })).toBeInTheDocument();
  });
});
