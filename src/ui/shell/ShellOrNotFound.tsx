import { matchRoute, Route, Switch, useLocation, useRouter } from 'wouter';
import { RequireAuth } from '../routing/guards.tsx';
import { renderShellRoute, shellRoutes } from '../routing/routes.tsx';
import { NotFoundScreen } from '../screens/NotFoundScreen.tsx';
import { AppShell } from './AppShell.tsx';

/**
 * Every screen inside the app shell (and the not-found page): known shell paths get the guard and
 * the shell; anything else is the not-found page. Its own chunk (see App.tsx), so a reader's address
 * does not download and evaluate the library, book and admin screens before its first page.
 */
export function ShellOrNotFound() {
  const [location] = useLocation();
  const { parser } = useRouter();
  const known = shellRoutes.some((route) => matchRoute(parser, route.path, location)[0]);
  if (!known) return <NotFoundScreen />;
  return (
    <RequireAuth>
      <AppShell>
        <Switch>
          {shellRoutes.map((route) => (
            <Route key={route.path} path={route.path}>
              {(params) => renderShellRoute(route, params)}
            </Route>
          ))}
        </Switch>
      </AppShell>
    </RequireAuth>
  );
}
