/**
 * The router's React side (decision 0032): the subset of React Router 7's declarative API the app
 * uses, with the same names and behaviour, in about 2 kB instead of React Router's ~12 kB (brotli)
 * on every first screen.
 */
import {
  Children,
  createContext,
  forwardRef,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import {
  createBrowserHistory,
  createMemoryHistory,
  createStaticHistory,
  type History,
  type InitialEntry,
  type Location,
} from './history';
import { createPath, decodePath, isExternal, matchPath, rankPath, resolvePath } from './match';

interface RouterState {
  history: History;
  location: Location;
}

const RouterContext = createContext<RouterState | null>(null);
const ParamsContext = createContext<Readonly<Record<string, string | undefined>>>({});

function useRouter(hook: string): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error(`${hook}() may be used only inside a router.`);
  return router;
}

/** Renders `children` at `history`'s location, and again whenever it changes. */
function Router({ history, children }: { history: History; children?: ReactNode }) {
  // A history keeps the same location object until it changes, as the store contract asks.
  const location = useSyncExternalStore(history.listen, () => history.location);
  const value = useMemo(() => ({ history, location }), [history, location]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** The history made on the first render, kept for the router's life. */
const useOnce = <T,>(create: () => T): T => useState(create)[0];

export function BrowserRouter({ children }: { children?: ReactNode }) {
  const history = useOnce(() => createBrowserHistory());
  return <Router history={history}>{children}</Router>;
}

export function MemoryRouter({
  initialEntries,
  initialIndex,
  children,
}: {
  initialEntries?: InitialEntry[];
  initialIndex?: number;
  children?: ReactNode;
}) {
  const history = useOnce(() => createMemoryHistory(initialEntries, initialIndex));
  return <Router history={history}>{children}</Router>;
}

export function StaticRouter({ location, children }: { location: InitialEntry; children?: ReactNode }) {
  const history = useOnce(() => createStaticHistory(location));
  return <Router history={history}>{children}</Router>;
}

export interface RouteProps {
  path: string;
  element?: ReactNode;
}

/** A line of <Routes>: read by it, never rendered on its own. */
export function Route(_: RouteProps): ReactElement | null {
  return null;
}

/** The element of the most specific <Route> matching the location, or nothing. */
export function Routes({ children }: { children?: ReactNode }) {
  const { location } = useRouter('Routes');
  const routes = Children.toArray(children)
    .filter((child): child is ReactElement<RouteProps> => isValidElement(child) && child.type === Route)
    .map((child, index) => ({ ...child.props, index, rank: rankPath(child.props.path) }))
    .sort((a, b) => b.rank - a.rank || a.index - b.index);
  const pathname = decodePath(location.pathname);
  for (const route of routes) {
    const match = matchPath({ path: route.path }, pathname);
    if (match)
      return <ParamsContext.Provider value={match.params}>{route.element ?? null}</ParamsContext.Provider>;
  }
  return null;
}

export function useLocation(): Location {
  return useRouter('useLocation').location;
}

export function useParams<K extends string = string>(): Readonly<Partial<Record<K, string>>> {
  return useContext(ParamsContext) as Readonly<Partial<Record<K, string>>>;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = {
  (to: string, options?: NavigateOptions): void;
  (delta: number): void;
};

function go(history: History, to: string | number, options: NavigateOptions = {}): void {
  if (typeof to === 'number') return history.go(to);
  const href = createPath(resolvePath(to, history.location.pathname));
  if (options.replace) history.replace(href, options.state);
  else history.push(href, options.state);
}

/** A function that navigates; the same function for the router's whole life. */
export function useNavigate(): NavigateFunction {
  const { history } = useRouter('useNavigate');
  return useCallback(
    (to: string | number, options?: NavigateOptions) => go(history, to, options),
    [history],
  ) as NavigateFunction;
}

/** Navigates once it is shown (a redirect while rendering). */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const { history } = useRouter('Navigate');
  useEffect(() => go(history, to, { replace, state }), [history, to, replace, state]);
  return null;
}

type SearchInit = string | URLSearchParams | Record<string, string> | [string, string][];

export function useSearchParams(): [
  URLSearchParams,
  (next: SearchInit | ((previous: URLSearchParams) => SearchInit), options?: NavigateOptions) => void,
] {
  const { history, location } = useRouter('useSearchParams');
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useCallback(
    (next: SearchInit | ((previous: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
      const value = typeof next === 'function' ? next(new URLSearchParams(history.location.search)) : next;
      const search = new URLSearchParams(value).toString();
      go(history, `${history.location.pathname}${search ? `?${search}` : ''}`, options);
    },
    [history],
  );
  return [params, set];
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
  state?: unknown;
}

const modified = (event: MouseEvent) => event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;

/**
 * A real link (its href works in a new tab, and for assistive technology) whose plain click
 * navigates in the app. A link to where the learner already is replaces the entry.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, onClick, target, children, ...rest },
  ref,
) {
  const { history, location } = useRouter('Link');
  const external = isExternal(to);
  const href = external ? to : createPath(resolvePath(to, location.pathname));
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (external || event.defaultPrevented || event.button !== 0 || modified(event)) return;
    if (target && target !== '_self') return;
    event.preventDefault();
    const here = createPath(history.location) === href;
    go(history, href, { replace: replace ?? here, state });
  };
  return (
    <a {...rest} ref={ref} href={href} target={target} onClick={handleClick}>
      {children}
    </a>
  );
});
