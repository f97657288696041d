import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { ApiError } from './api-client';
import { errorPageOf, errorPagePath, ErrorPageRedirect } from './error-page';

describe('the /{code} error page helper (docs/product.md §2)', () => {
  it.each([
    [new ApiError(404, {}, 'lessons/x'), 404],
    [new ApiError(403, {}, 'lessons/x'), 403],
    [new ApiError(500, {}, 'lessons/x'), null],
    [new TypeError('offline'), null],
  ] as const)('a failed read %# leads to %s', (error, code) => {
    expect(errorPageOf(error)).toBe(code);
  });

  it('builds /{code}, 404 by default', () => {
    expect(errorPagePath()).toBe('/404');
    expect(errorPagePath(403)).toBe('/403');
  });

  it('replaces a screen that is an error from the start', () => {
    function Where() {
      return <p data-testid="where">{useLocation().pathname}</p>;
    }
    render(
      <MemoryRouter initialEntries={['/nowhere']}>
        <Routes>
          <Route path="/403" element={<Where />} />
          <Route path="*" element={<ErrorPageRedirect code={403} />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByTestId('where')).toHaveTextContent('/403');
  });
});
