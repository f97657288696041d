import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'preact-render-to-string';
import { useState } from 'react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  Route,
  Routes,
  StaticRouter,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from '.';

/** Shows where the router is: pathname, search, state and key. */
function Where() {
  const location = useLocation();
  return (
    <output data-testid="where" data-key={location.key}>
      {`${location.pathname}${location.search}${location.hash}|${JSON.stringify(location.state)}`}
    </output>
  );
}
const where = () => screen.getByTestId('where').textContent;

function Param({ name }: { name: string }) {
  const params = useParams();
  return <p>{`${name}=${params[name] ?? '∅'}`}</p>;
}

function Navigator() {
  const navigate = useNavigate();
  const [first] = useState(() => navigate);
  return (
    <>
      <button onClick={() => navigate('/b', { state: { from: 'a' } })}>push b</button>
      <button onClick={() => navigate('/c', { replace: true })}>replace c</button>
      <button onClick={() => navigate(-1)}>back</button>
      <p>{first === navigate ? 'stable' : 'changed'}</p>
    </>
  );
}

describe('Routes', () => {
  it.each([
    ['/session/l-1', 'id=l-1'],
    ['/session/l%201/page/p-2', 'pageId=p-2'],
    ['/session/new', 'static'],
    ['/nowhere', 'fallback'],
  ])('at %s shows %s', (path, shown) => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={<p>fallback</p>} />
          <Route path="/session/:id" element={<Param name="id" />} />
          <Route path="/session/:id/page/:pageId" element={<Param name="pageId" />} />
          <Route path="/session/new" element={<p>static</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByText(shown)).toBeInTheDocument();
  });

  it('gives a route its decoded parameters', () => {
    render(
      <MemoryRouter initialEntries={['/enseignement/classe%20A%2FB']}>
        <Routes>
          <Route path="/enseignement/:classId" element={<Param name="classId" />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByText('classId=classe A/B')).toBeInTheDocument();
  });
});

describe('navigation in memory', () => {
  it('pushes with state, replaces, goes back, and keeps one navigate function', async () => {
    render(
      <MemoryRouter initialEntries={['/a']}>
        <Navigator />
        <Where />
      </MemoryRouter>,
    );
    expect(where()).toBe('/a|null');
    await userEvent.click(screen.getByRole('button', { name: 'push b' }));
    expect(where()).toBe('/b|{"from":"a"}');
    await userEvent.click(screen.getByRole('button', { name: 'replace c' }));
    expect(where()).toBe('/c|null');
    await userEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(where()).toBe('/a|null');
    expect(screen.getByText('stable')).toBeInTheDocument();
  });

  it('redirects with <Navigate>, replacing the entry', () => {
    render(
      <MemoryRouter initialEntries={['/old']}>
        <Routes>
          <Route path="/old" element={<Navigate to="/new?x=1" replace />} />
          <Route path="/new" element={<Where />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(where()).toBe('/new?x=1|null');
  });

  it('reads and writes the search parameters of the current path', async () => {
    function Pager() {
      const [params, setParams] = useSearchParams();
      return (
        <button onClick={() => setParams((previous) => ({ ...Object.fromEntries(previous), page: '2' }))}>
          {`page ${params.get('page') ?? 1} of ${params.get('period')}`}
        </button>
      );
    }
    render(
      <MemoryRouter initialEntries={['/?period=all']}>
        <Pager />
        <Where />
      </MemoryRouter>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'page 1 of all' }));
    expect(where()).toBe('/?period=all&page=2|null');
    expect(screen.getByRole('button', { name: 'page 2 of all' })).toBeInTheDocument();
  });
});

describe('Link', () => {
  const links = (at: string) =>
    render(
      <MemoryRouter initialEntries={['/start', at]}>
        <Link to="/niveaux" state={{ tab: 1 }} className="tab">
          Levels
        </Link>
        <Link to="/here">Here</Link>
        <Link to="https://example.org/">Elsewhere</Link>
        <Navigator />
        <Where />
      </MemoryRouter>,
    );

  it('is a real link whose plain click navigates in the app', async () => {
    links('/here');
    const link = screen.getByRole('link', { name: 'Levels' });
    expect(link).toHaveAttribute('href', '/niveaux');
    expect(link).toHaveClass('tab');
    await userEvent.click(link);
    expect(where()).toBe('/niveaux|{"tab":1}');
  });

  it('leaves a modified or middle click, and another site, to the browser', () => {
    // After the link's own handler: jsdom cannot open another document.
    const stopLoad = (event: Event) => event.preventDefault();
    document.addEventListener('click', stopLoad);
    onTestFinished(() => document.removeEventListener('click', stopLoad));
    links('/here');
    const link = screen.getByRole('link', { name: 'Levels' });
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      fireEvent.click(link, init);
      expect(where()).toBe('/here|null');
    }
    expect(screen.getByRole('link', { name: 'Elsewhere' })).toHaveAttribute('href', 'https://example.org/');
  });

  it('replaces the entry when it leads where the learner already is', async () => {
    links('/here');
    await userEvent.click(screen.getByRole('link', { name: 'Here' }));
    expect(where()).toBe('/here|null');
    await userEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(where()).toBe('/start|null');
  });
});

describe('BrowserRouter', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('follows the address bar, its history state and the back button', async () => {
    window.history.replaceState(null, '', '/a');
    render(
      <BrowserRouter>
        <Navigator />
        <Where />
      </BrowserRouter>,
    );
    expect(where()).toBe('/a|null');
    expect(screen.getByTestId('where')).toHaveAttribute('data-key', 'default');
    await userEvent.click(screen.getByRole('button', { name: 'push b' }));
    expect(window.location.pathname).toBe('/b');
    expect(where()).toBe('/b|{"from":"a"}');
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(where()).toBe('/a|null');
  });
});

describe('StaticRouter', () => {
  it('draws its location and ignores navigations', () => {
    const html = renderToString(
      <StaticRouter location="/login?mode=recover">
        <Navigate to="/elsewhere" />
        <Link to="/login">Back</Link>
        <Where />
      </StaticRouter>,
    );
    expect(html).toContain('/login?mode=recover|null');
    expect(html).toContain('href="/login"');
  });

  it('asks for a router around the hooks', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Where />)).toThrow('useLocation() may be used only inside a router.');
    spy.mockRestore();
  });
});
