/** The app's router (decision 0032): React Router 7's declarative API, the part the app uses. */
export {
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
} from './components';
export type { LinkProps, NavigateFunction, NavigateOptions, RouteProps } from './components';
export { matchPath } from './match';
export type { PathMatch, PathPattern } from './match';
export type { Location } from './history';
