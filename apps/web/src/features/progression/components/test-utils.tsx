import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { LessonAttributes } from '@parcours/domain/entities';
import { lesson } from '../../../test/fixtures';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

/** Renders a progression screen at `path` with a fresh query client and a location probe. */
export function renderAt(path: string, pattern: string, element: ReactElement) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={element} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A finished lesson document, as GET /api/lessons/{id}?include=course answers it. */
export function lessonDoc(id: string, attributes: Partial<LessonAttributes> = {}, courseTitle = 'Fractions') {
  const resource = lesson(id, 'c-1', 'pc-1', 'k-1', { progress: 'COMPLETED', state: 'DONE', ...attributes });
  return {
    data: { ...resource, relationships: { course: { data: { type: 'courses', id: 'k-1' } } } },
    included: [{ type: 'courses', id: 'k-1', attributes: { title: courseTitle } }],
  };
}

export const pageDoc = (lessonId: string) => ({
  data: { type: 'lesson-pages', id: `${lessonId}-p1`, attributes: {} },
});
