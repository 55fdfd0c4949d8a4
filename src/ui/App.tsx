import { useEffect, useMemo, useRef } from 'react';
import { matchRoute, Route, Router, Switch, useLocation, useRouter, useSearch } from 'wouter';
import { RequireAuth } from './routing/guards.tsx';
import { renderShellRoute, shellRoutes } from './routing/routes.tsx';
import { LoginScreen } from './screens/LoginScreen.tsx';
import { NotFoundScreen } from './screens/NotFoundScreen.tsx';
import { StartupScreen } from './screens/StartupScreen.tsx';
import { AppShell } from './shell/AppShell.tsx';
import { t } from './i18n.ts';
import { LiveEvents } from './events/LiveEvents.tsx';
import { openBook, ReaderScreen } from './reader/readerLaunch.ts';
import { parseReaderQuery } from './reader/readerQuery.ts';
import { pageBasePath } from '../api/basePath.ts';

/**
 * The reader's route. Opening a book starts, right here in the main bundle and before the reader's
 * code has loaded: the reader's chunk, the decode workers, the book's description, pages and series,
 * and the download of the page it opens at (readerLaunch.ts; a cold load of the address started them
 * already, from main.tsx). Started during render because that is the earliest moment the route is
 * known; every start is idempotent.
 */
function ReaderRoute({ bookId }: { bookId: string }) {
  const search = useSearch();
  // Once per book, with the address it was opened at: the reader rewrites ?page= as it goes, and
  // those changes must not load the book again.
  useMemo(() => openBook(bookId, parseReaderQuery(search).page), [bookId]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <RequireAuth>
      <ReaderScreen bookId={bookId} />
    </RequireAuth>
  );
}

/** Book, series and reader pages name the tab themselves; every other route shows the product name. */
const OWN_TITLE = /^\/(book|series)\//;

function RouteEffects() {
  const [location] = useLocation();
  const previous = useRef(location);
  useEffect(() => {
    if (!OWN_TITLE.test(location)) document.title = t('common.product_name');
    // A different route starts at the top; a query change on the same route keeps the position.
    if (previous.current !== location) window.scrollTo(0, 0);
    previous.current = location;
  }, [location]);
  return null;
}

/** Known shell paths get the guard and the shell; anything else is the not-found page. */
function ShellOrNotFound() {
  const [location] = useLocation();
  const { parser } = useRouter();
  const known = shellRoutes.some((route) => matchRoute(parser, route.path, location)[0]);
  if (!known) return <NotFoundScreen />;
  return (
    <RequireAuth>
      <AppShell>
        <Switch>
          {shellRoutes.map((route) => (
            // Only the matched route renders, so a key shared by routes of one screen keeps that screen.
            <Route key={route.screen ?? route.path} path={route.path}>
              {(params) => renderShellRoute(route, params)}
            </Route>
          ))}
        </Switch>
      </AppShell>
    </RequireAuth>
  );
}

export function App() {
  return (
    // Routes, links and navigation are written from the root; under a base path the router adds it.
    <Router base={pageBasePath()}>
      <RouteEffects />
      <LiveEvents />
      <Switch>
        <Route path="/startup" component={StartupScreen} />
        <Route path="/login" component={LoginScreen} />
        <Route path="/book/:bookId/read">{(params) => <ReaderRoute bookId={params.bookId} />}</Route>
        <Route component={ShellOrNotFound} />
      </Switch>
    </Router>
  );
}
