import { useEffect, useMemo, useRef } from 'react';
import { Route, Router, Switch, useLocation, useSearch } from 'wouter';
import { RequireAuth } from './routing/guards.tsx';
import { LoginScreen } from './screens/LoginScreen.tsx';
import { StartupScreen } from './screens/StartupScreen.tsx';
import { preloadShell, ShellOrNotFound } from './shell/shellChunk.ts';
import { t } from './i18n.ts';
import { whenIdle } from './whenIdle.ts';
import { afterFirstPage } from './reader/afterFirstPage.ts';
import { LiveEvents } from './events/LiveEvents.tsx';
import { openBook, ReaderScreen } from './reader/readerLaunch.ts';
import { parseReaderQuery } from './reader/readerQuery.ts';

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
  // The shell's screens (where the reader leads back to) load once the first page is up, not beside it.
  useEffect(() => {
    let cancelIdle: (() => void) | null = null;
    const cancelWait = afterFirstPage(() => {
      cancelIdle = whenIdle(() => void preloadShell());
    });
    return () => {
      cancelWait();
      cancelIdle?.();
    };
  }, []);
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

export function App() {
  return (
    <Router>
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
