import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { isAdmin, isAuthenticated, session } from '../store/session.ts';
import { fullPath, withRedirect } from './redirectTarget.ts';
import { useLocationHash } from './useLocationHash.ts';

/** Without a current user, go through /startup, which restores a cookie session or asks to log in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { me } = useSnapshot(session);
  const [location] = useLocation();
  const search = useSearch();
  const hash = useLocationHash();
  if (!isAuthenticated(me)) return <Redirect to={withRedirect('/startup', fullPath(location, search, hash))} replace />;
  return <>{children}</>;
}

/** Admin-only screens send everybody else home (SPEC §2). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { me } = useSnapshot(session);
  if (!isAdmin(me)) return <Redirect to="/" replace />;
  return <>{children}</>;
}

/** Library screens need at least one library; without one the user lands on /welcome. */
export function RequireLibrary({ children }: { children: ReactNode }) {
  const { libraries } = useSnapshot(session);
  if (libraries.length === 0) return <Redirect to="/welcome" replace />;
  return <>{children}</>;
}
