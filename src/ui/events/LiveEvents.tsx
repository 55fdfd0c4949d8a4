import { useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import { fullPath, withRedirect } from '../routing/redirectTarget.ts';
import { useLocationHash } from '../routing/useLocationHash.ts';
import { useSnapshot } from 'valtio';
import { getCurrentUser } from '../../api/auth.ts';
import { ApiError, setUnauthorizedHandler } from '../../api/http.ts';
import { openLiveEvents } from '../../api/events.ts';
import { t } from '../i18n.ts';
import { endSession, isAuthenticated, loadLibraries, session } from '../store/session.ts';
import { announceStreamOpened, cancelStreamResync, countStreamOpening, live, onLiveResync, publishLiveEvent, publishTaskQueueStatus, SERIES_OR_BOOK_EVENTS } from './liveStore.ts';

const LIBRARY_EVENTS = new Set(['LibraryAdded', 'LibraryChanged', 'LibraryDeleted']);

/**
 * Session watcher. Keeps the live event stream open exactly while a user is authenticated (SPEC §4): library
 * events refresh the drawer, queue status feeds the task count, a session-expired event for this
 * user logs out with an explanation, everything is re-published to the screens. A 401 on an
 * ordinary call does the same, returning to the current page after the next login.
 */
export function LiveEvents() {
  const { me } = useSnapshot(session);
  const userId = isAuthenticated(me) ? me?.id : undefined;
  const [location, navigate] = useLocation();
  const search = useSearch();
  const hash = useLocationHash();
  const here = useRef('/');
  here.current = fullPath(location, search, hash);

  // A 401 on an ordinary call while logged in means the server ended the session: say so and
  // come back here after logging in again. Login and session probes expect 401s and are left alone.
  useEffect(() => {
    if (!userId) return;
    let ending = false;
    setUnauthorizedHandler((action) => {
      if (ending || action === 'log_in' || action === 'retrieve_current_user' || action === 'log_out') return;
      // Calls still in flight when the user logged out may answer 401; that is no expiry.
      if (session.me?.id !== userId) return;
      ending = true;
      const target = here.current;
      void endSession(t('login.session_expired')).then(() => navigate(withRedirect('/login', target)));
    });
    return () => setUnauthorizedHandler(undefined);
  }, [userId, navigate]);

  useEffect(() => {
    if (!userId) return;
    async function expire() {
      await endSession(t('login.session_expired'));
      navigate('/login');
    }
    // The drawer's libraries are live data too: reloaded when the stream (re)opens, as the screens are.
    const stopResync = onLiveResync(() => {
      loadLibraries().catch((failure: unknown) => console.warn('Could not reload the libraries after the live event stream opened', failure));
    });
    let openedBefore = false;
    const close = openLiveEvents({
      onConnectionChange: (connected) => {
        if (connected && !live.connected) {
          countStreamOpening();
          announceStreamOpened(openedBefore);
          openedBefore = true;
        }
        live.connected = connected;
      },
      onFailure: (failures) => {
        // Repeated refusals may mean the session is gone; ask the API, which answers plainly.
        if (failures < 2) return;
        getCurrentUser().catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 401 && session.me?.id === userId) void expire();
        });
      },
      onEvent: (event) => {
        if (event.name === 'SessionExpired') {
          if (!event.data.userId || event.data.userId === userId) void expire();
          return;
        }
        if (event.name === 'TaskQueueStatus' && typeof event.data.count === 'number') {
          live.pendingTasks = event.data.count;
          if (typeof event.data.countByType === 'object' && event.data.countByType !== null) publishTaskQueueStatus(event.data.countByType);
        }
        if (LIBRARY_EVENTS.has(event.name)) {
          loadLibraries().catch((failure: unknown) => console.warn(`Could not reload the libraries after ${event.name}`, failure));
        }
        if (SERIES_OR_BOOK_EVENTS.includes(event.name)) live.announcesContentChanges = true;
        publishLiveEvent(event);
      },
    });
    return () => {
      stopResync();
      close();
      cancelStreamResync();
      live.connected = false;
    };
  }, [userId, navigate]);

  return null;
}
