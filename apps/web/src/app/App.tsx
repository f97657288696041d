import { useEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { ErrorPageRedirect } from '../lib/error-page';
import { installUnauthorizedRedirect } from './boot';
import { ErrorBoundary } from './ErrorBoundary';
import { RouteGate } from './RouteGate';
import { ROUTES } from './routes';
import { Shell } from './Shell';

/** Connects the API client's 401 rule to the router (docs/product.md §2: back to /login). */
function UnauthorizedRedirect() {
  const navigate = useNavigate();
  useEffect(() => installUnauthorizedRedirect((path) => void navigate(path)), [navigate]);
  return null;
}

export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary key={pathname}>
      <Routes>
        {ROUTES.map((route) => (
          <Route key={route.path} path={route.path} element={<RouteGate key={route.path} route={route} />} />
        ))}
        {/* docs/product.md §2: any unknown path goes to 404. */}
        <Route path="*" element={<ErrorPageRedirect />} />
      </Routes>
    </ErrorBoundary>
  );
}

/** The app inside its router: the browser's (App) or the server's (prerender/sign-in.tsx). */
export function AppContent() {
  return (
    <>
      <UnauthorizedRedirect />
      <Shell>
        <AppRoutes />
      </Shell>
    </>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppContent />
    </BrowserRouter>
  );
}
