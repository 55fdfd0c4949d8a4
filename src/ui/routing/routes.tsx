import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { BookScreen } from '../screens/BookScreen.tsx';
import { DashboardScreen } from '../screens/DashboardScreen.tsx';
import { LibraryRedirect } from '../screens/LibraryRedirect.tsx';
import { CollectionScreen, ReadListScreen } from '../screens/GroupDetailScreen.tsx';
import { LibraryScreen } from '../screens/library/LibraryScreen.tsx';
import type { LibraryView } from '../store/preferences.ts';
import { SeriesScreen } from '../screens/SeriesScreen.tsx';
import { WelcomeScreen } from '../screens/WelcomeScreen.tsx';
import { SearchScreen } from '../search/SearchScreen.tsx';
import { RequireAdmin, RequireLibrary } from './guards.tsx';
import { lazyScreen } from './lazyScreen.tsx';

// Screens most visits never open load on demand.
const AccountScreen = lazyScreen(() => import('../account/AccountScreen.tsx').then((m) => m.AccountScreen));
const HistoryScreen = lazyScreen(() => import('../screens/HistoryScreen.tsx').then((m) => m.HistoryScreen));
const UsersScreen = lazyScreen(() => import('../settings/UsersScreen.tsx').then((m) => m.UsersScreen));
const ServerScreen = lazyScreen(() => import('../screens/ServerScreen.tsx').then((m) => m.ServerScreen));
const MetricsScreen = lazyScreen(() => import('../screens/MetricsScreen.tsx').then((m) => m.MetricsScreen));
const MediaAnalysisScreen = lazyScreen(() =>
  import('../screens/media/MediaAnalysisScreen.tsx').then((m) => m.MediaAnalysisScreen),
);
const DuplicateFilesScreen = lazyScreen(() =>
  import('../screens/media/DuplicateFilesScreen.tsx').then((m) => m.DuplicateFilesScreen),
);
const DuplicatePagesScreen = lazyScreen(() =>
  import('../screens/media/DuplicatePagesScreen.tsx').then((m) => m.DuplicatePagesScreen),
);
const ImportReadListScreen = lazyScreen(() =>
  import('../screens/ImportReadListScreen.tsx').then((m) => m.ImportReadListScreen),
);
const ImportBooksScreen = lazyScreen(() => import('../screens/ImportBooksScreen.tsx').then((m) => m.ImportBooksScreen));

type Params = Record<string, string | undefined>;

/** Screens inside the app shell (SPEC §2); all need login, `admin` ones need the ADMIN role. */
export interface ShellRoute {
  path: string;
  admin?: boolean;
  /**
   * Routes that show one screen share it (React keeps the screen, its state and its focus): a dialog
   * child route such as /settings/users/add opens over its parent rather than rebuilding it.
   */
  screen?: string;
  render: (params: Params) => ReactNode;
}

const param = (params: Params, name: string) => params[name] ?? '';

export const shellRoutes: ShellRoute[] = [
  { path: '/', render: () => <Redirect to="/dashboard" replace /> },
  { path: '/welcome', render: () => <WelcomeScreen /> },
  { path: '/dashboard', render: () => <DashboardScreen /> },
  { path: '/libraries', render: () => <LibraryRedirect libraryId="all" /> },
  { path: '/libraries/:libraryId', render: (p) => <LibraryRedirect libraryId={param(p, 'libraryId')} /> },
  ...(['recommended', 'series', 'collections', 'readlists'] as const).map((view: LibraryView) => ({
    path: `/libraries/:libraryId/${view}`,
    render: (p: Params) => (
      <RequireLibrary>
        <LibraryScreen libraryId={param(p, 'libraryId')} view={view} />
      </RequireLibrary>
    ),
  })),
  { path: '/series/:seriesId', render: (p) => <SeriesScreen seriesId={param(p, 'seriesId')} /> },
  { path: '/book/:bookId', render: (p) => <BookScreen bookId={param(p, 'bookId')} /> },
  { path: '/collections/:collectionId', render: (p) => <CollectionScreen collectionId={param(p, 'collectionId')} /> },
  { path: '/readlists/:readListId', render: (p) => <ReadListScreen readListId={param(p, 'readListId')} /> },
  { path: '/search', render: () => <SearchScreen /> },
  { path: '/history', render: () => <HistoryScreen /> },
  { path: '/account', render: () => <AccountScreen /> },
  { path: '/settings', admin: true, render: () => <Redirect to="/settings/users" replace /> },
  { path: '/settings/users', admin: true, screen: 'users', render: () => <UsersScreen adding={false} /> },
  { path: '/settings/users/add', admin: true, screen: 'users', render: () => <UsersScreen adding /> },
  { path: '/settings/server', admin: true, render: () => <ServerScreen /> },
  { path: '/settings/metrics', admin: true, render: () => <MetricsScreen /> },
  { path: '/media-management', admin: true, render: () => <Redirect to="/media-management/analysis" replace /> },
  { path: '/media-management/analysis', admin: true, render: () => <MediaAnalysisScreen /> },
  { path: '/media-management/duplicate-files', admin: true, render: () => <DuplicateFilesScreen /> },
  {
    path: '/media-management/duplicate-pages',
    admin: true,
    render: () => <Redirect to="/media-management/duplicate-pages/known" replace />,
  },
  { path: '/media-management/duplicate-pages/known', admin: true, render: () => <DuplicatePagesScreen which="known" /> },
  { path: '/media-management/duplicate-pages/unknown', admin: true, render: () => <DuplicatePagesScreen which="unknown" /> },
  { path: '/import', admin: true, render: () => <Redirect to="/import/books" replace /> },
  { path: '/import/books', admin: true, render: () => <ImportBooksScreen /> },
  { path: '/import/readlist', admin: true, render: () => <ImportReadListScreen /> },
];

export function renderShellRoute(route: ShellRoute, params: Params): ReactNode {
  const screen = route.render(params);
  return route.admin ? <RequireAdmin>{screen}</RequireAdmin> : screen;
}
