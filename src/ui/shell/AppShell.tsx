import { ListTodo, LogOut, Menu } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import * as buttons from '../components/buttons.css.ts';
import { LiveStatus } from '../components/Feedback.tsx';
import * as feedback from '../components/feedback.css.ts';
import { AddLibraryDialog } from '../dialogs/AddLibraryDialog.tsx';
import { live } from '../events/liveStore.ts';
import { formatNumber } from '../format.ts';
import { t, tPlural } from '../i18n.ts';
import { dialogs } from '../store/dialogs.ts';
import { endSession, isAdmin, session } from '../store/session.ts';
import { SearchBox } from '../search/SearchBox.tsx';
import { useMediaQuery } from '../hooks/useMediaQuery.ts';
import { NARROW } from './breakpoints.ts';
import { NavDrawer } from './NavDrawer.tsx';
import * as styles from './shell.css.ts';
import { useTaskCountAnnouncement } from './useTaskCountAnnouncement.ts';
import { flipInRtl } from '../theme/direction.css.ts';

const DRAWER_ID = 'folio-nav-drawer';
const MAIN_ID = 'folio-main';

/** Child routes that are a dialog over their parent screen (SPEC §2: /settings/users/add). */
const DIALOG_ROUTES: Record<string, string> = { '/settings/users/add': '/settings/users' };

function isDialogRouteOf(dialog: string, screen: string): boolean {
  return DIALOG_ROUTES[dialog] === screen;
}

/** App bar + navigation drawer around every logged-in screen except the reader. */
export function AppShell({ children }: { children: ReactNode }) {
  const [location, navigate] = useLocation();
  const dialogFlags = useSnapshot(dialogs);
  // The drawer is open at the address it was opened at: any move elsewhere closes it in the same
  // render (a link in it, a dialog opened from it that takes the user to what it made, Back), so
  // it never stays over the screen the user was taken to, and focus can go on to that screen.
  const [drawerOpenAt, setDrawerOpenAt] = useState<string | null>(null);
  const drawerOpen = drawerOpenAt === location;
  const setDrawerOpen = (open: boolean) => setDrawerOpenAt(open ? location : null);
  // "New library" was chosen in the phone's drawer: a cancelled dialog goes back there.
  const [addingFromDrawer, setAddingFromDrawer] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const { me } = useSnapshot(session);
  const { pendingTasks } = useSnapshot(live);
  const taskAnnouncement = useTaskCountAnnouncement(isAdmin(me) ? pendingTasks : 0);
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location);

  // After navigating, keyboard and screen-reader users continue from the new content, not from
  // the link they activated (which may no longer exist).
  useEffect(() => {
    if (location === firstPath.current) return;
    const previous = firstPath.current;
    firstPath.current = location;
    // A dialog with its own address opens over its screen: the dialog gives focus back to the
    // button that opened it when it closes, and taking it to <main> would lose that place.
    if (isDialogRouteOf(previous, location) || isDialogRouteOf(location, previous)) return;
    mainRef.current?.focus({ preventScroll: true });
  }, [location]);

  // On narrow screens the drawer is a modal over the content; wider, it is always shown beside it.
  const narrow = useMediaQuery(NARROW);
  useEffect(() => {
    if (!narrow) setDrawerOpen(false);
  }, [narrow]);

  async function logOut() {
    setLoggingOut(true);
    await endSession();
    setLoggingOut(false);
    navigate('/login?logout=true');
  }

  return (
    <>
      <a href={`#${MAIN_ID}`} className={styles.skipLink}>
        {t('app.skip_to_content')}
      </a>
      <header className={styles.appBar}>
        <button
          type="button"
          className={`${buttons.icon} ${styles.menuButton}`}
          aria-label={t('nav.toggle')}
          aria-expanded={drawerOpen}
          aria-controls={DRAWER_ID}
          onClick={() => {
            // Opened by the user, the drawer starts at its top as usual.
            setAddingFromDrawer(false);
            setDrawerOpen(!drawerOpen);
          }}
        >
          <Menu aria-hidden="true" size={22} />
        </button>
        <Link href="/dashboard" className={styles.productName}>
          {t('common.product_name')}
        </Link>
        {/* The search page has its own, larger search field. */}
        {location !== '/search' && <SearchBox />}
        {/* The count is spoken through its own region, calmly (useTaskCountAnnouncement); the chip is only seen. */}
        {isAdmin(me) && <LiveStatus as="span" className={feedback.visuallyHidden} message={taskAnnouncement} />}
        {isAdmin(me) && pendingTasks > 0 && (
          <span className={styles.taskCount}>
            <ListTodo aria-hidden="true" size={14} />
            <span aria-hidden="true" className={styles.taskCountShort}>
              {formatNumber(pendingTasks)}
            </span>
            <span className={styles.barLabel}>{tPlural('app.pending_tasks', pendingTasks)}</span>
          </span>
        )}
        <button type="button" className={buttons.quiet} onClick={logOut} disabled={loggingOut}>
          <LogOut className={flipInRtl} aria-hidden="true" size={18} />
          <span className={styles.barLabel}>{t('app.log_out')}</span>
        </button>
      </header>
      <div className={styles.body}>
        {/* A link to the screen already shown moves nowhere, and closes the drawer all the same. */}
        <NavDrawer
          id={DRAWER_ID}
          open={drawerOpen}
          modal={narrow}
          onNavigate={() => {
            setDrawerOpen(false);
            setAddingFromDrawer(false);
          }}
          // Not where "New library" is forgotten: closing the drawer for its dialog ends here too.
          onClose={() => setDrawerOpen(false)}
          onNewLibrary={() => {
            // On a phone the drawer is a modal: it closes, so it is not left open behind the dialog;
            // a cancelled dialog brings it back, at "New library", where the user was.
            setAddingFromDrawer(narrow);
            setDrawerOpen(false);
            dialogs.addLibrary = true;
          }}
          startAtNewLibrary={addingFromDrawer}
        />
        <main id={MAIN_ID} ref={mainRef} className={styles.main} tabIndex={-1}>
          {children}
        </main>
      </div>
      <AddLibraryDialog
        open={dialogFlags.addLibrary}
        onClose={() => {
          dialogs.addLibrary = false;
          if (addingFromDrawer) setDrawerOpen(true);
        }}
        onAdded={(library) => {
          dialogs.addLibrary = false;
          setAddingFromDrawer(false);
          navigate(`/libraries/${library.id}/series`);
        }}
      />
    </>
  );
}
