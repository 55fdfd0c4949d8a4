import { BarChart3, FileInput, FileWarning, History, Home, Library, Plus, Search as SearchIcon, Server, UserRound, Users, X } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import * as buttons from '../components/buttons.css.ts';
import { INITIAL_FOCUS, useModalDialog } from '../components/useModalDialog.ts';
import { wrapTab } from '../components/wrapTab.ts';
import { t } from '../i18n.ts';
import { dialogs } from '../store/dialogs.ts';
import { isAdmin, session } from '../store/session.ts';
import * as styles from './shell.css.ts';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { LocalePicker } from './LocalePicker.tsx';

function NavLink({ href, activePrefix, children }: { href: string; activePrefix?: string; children: ReactNode }) {
  const [location] = useLocation();
  const active = activePrefix ? location === activePrefix || location.startsWith(`${activePrefix}/`) : location === href;
  return (
    <Link href={href} className={styles.navLink} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/**
 * Home, search and every library the user can see, plus "All libraries". A column beside the
 * content on wide screens; on narrow ones (`modal`) a modal <dialog> over it, shown while `open`.
 */
export function NavDrawer(props: DrawerProps & { modal: boolean }) {
  if (!props.modal) return <NavContent id={props.id} onNavigate={props.onNavigate} onNewLibrary={props.onNewLibrary} className={styles.drawer} />;
  return <DrawerDialog {...props} />;
}

/**
 * The phone's drawer as a native modal dialog, as the other dialogs are: the browser moves focus
 * into it, keeps Tab and Shift+Tab inside, makes the page behind inert (hidden from screen
 * readers too), closes it on Escape and gives focus back to the menu button that opened it. wrapTab keeps Tab
 * from leaving it for the browser's own controls.
 */
interface DrawerProps {
  id: string;
  open: boolean;
  onNavigate: () => void;
  onClose: () => void;
  /** "New library": the shell opens the dialog (on a phone, closing the drawer first). */
  onNewLibrary?: () => void;
  /** The drawer opens with "New library" focused: the user comes back from its dialog, cancelled. */
  startAtNewLibrary?: boolean;
}

function DrawerDialog({ id, open, onNavigate, onClose, onNewLibrary, startAtNewLibrary }: DrawerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useModalDialog(ref, open);
  // Unmounted while open (the window grew past the narrow width): the modal must not stay.
  useEffect(() => () => ref.current?.close(), []);

  return (
    <dialog
      ref={ref}
      className={styles.drawerDialog}
      aria-label={t('nav.label')}
      onClose={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      onKeyDown={(event) => wrapTab(event, event.currentTarget)}
      onClick={(event) => {
        // A tap on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) ref.current?.close();
      }}
    >
      <NavContent id={id} onNavigate={onNavigate} onNewLibrary={onNewLibrary} startAtNewLibrary={startAtNewLibrary} className={styles.drawerInDialog}>
        {/* Touch screen-reader users have no Escape key, and the menu button is behind the modal. */}
        <div className={styles.drawerClose}>
          <button type="button" className={buttons.icon} aria-label={t('nav.close')} title={t('nav.close')} onClick={() => ref.current?.close()}>
            <X aria-hidden="true" size={20} />
          </button>
        </div>
      </NavContent>
    </dialog>
  );
}

function NavContent({
  id,
  onNavigate,
  onNewLibrary,
  startAtNewLibrary,
  className,
  children,
}: {
  id: string;
  onNavigate: () => void;
  onNewLibrary?: () => void;
  startAtNewLibrary?: boolean;
  className: string;
  children?: ReactNode;
}) {
  const { me, libraries } = useSnapshot(session);
  return (
    <nav
      id={id}
      aria-label={t('nav.label')}
      className={className}
      onClick={(event) => {
        if ((event.target as HTMLElement).closest('a')) onNavigate();
      }}
    >
      {children}
      <ul className={styles.navList}>
        <li>
          <NavLink href="/dashboard">
            <Home aria-hidden="true" size={18} />
            {t('nav.home')}
          </NavLink>
        </li>
        <li>
          <NavLink href="/search">
            <SearchIcon aria-hidden="true" size={18} />
            {t('nav.search')}
          </NavLink>
        </li>
      </ul>
      {/* A reader with no library has nothing here: no heading over an empty list. */}
      {(isAdmin(me) || libraries.length > 0) && (
        <>
          <h2 className={styles.drawerHeading}>
            <span>{t('nav.libraries')}</span>
            {isAdmin(me) && (
              <button
                type="button"
                className={buttons.icon}
                aria-label={t('nav.new_library')}
                title={t('nav.new_library')}
                {...(startAtNewLibrary ? { [INITIAL_FOCUS]: '' } : {})}
                onClick={() => {
                  if (onNewLibrary) onNewLibrary();
                  else dialogs.addLibrary = true;
                }}
              >
                <Plus aria-hidden="true" size={18} />
              </button>
            )}
          </h2>
          <ul className={styles.navList}>
            {libraries.length > 0 && (
              <li>
                <NavLink href="/libraries/all" activePrefix="/libraries/all">
                  <Library aria-hidden="true" size={18} />
                  {t('nav.all_libraries')}
                </NavLink>
              </li>
            )}
            {libraries.map((library) => (
              <li key={library.id}>
                <NavLink href={`/libraries/${library.id}`} activePrefix={`/libraries/${library.id}`}>
                  <Library aria-hidden="true" size={18} />
                  {library.name}
                </NavLink>
              </li>
            ))}
          </ul>
        </>
      )}
      <ul className={styles.navList} aria-label={t('nav.more')} style={{ marginTop: 16 }}>
        <li>
          <NavLink href="/history">
            <History aria-hidden="true" size={18} />
            {t('nav.history')}
          </NavLink>
        </li>
        <li>
          <NavLink href="/account">
            <UserRound aria-hidden="true" size={18} />
            {t('nav.account')}
          </NavLink>
        </li>
      </ul>
      {isAdmin(me) && (
        <>
          <h2 className={styles.drawerHeading}>
            <span>{t('nav.administration')}</span>
          </h2>
          <ul className={styles.navList}>
            <li>
              <NavLink href="/settings/users" activePrefix="/settings/users">
                <Users aria-hidden="true" size={18} />
                {t('nav.users')}
              </NavLink>
            </li>
            <li>
              <NavLink href="/settings/server">
                <Server aria-hidden="true" size={18} />
                {t('nav.server')}
              </NavLink>
            </li>
            <li>
              <NavLink href="/settings/metrics">
                <BarChart3 aria-hidden="true" size={18} />
                {t('nav.metrics')}
              </NavLink>
            </li>
            <li>
              <NavLink href="/media-management/analysis" activePrefix="/media-management">
                <FileWarning aria-hidden="true" size={18} />
                {t('nav.media_management')}
              </NavLink>
            </li>
            <li>
              <NavLink href="/import/books" activePrefix="/import">
                <FileInput aria-hidden="true" size={18} />
                {t('nav.import')}
              </NavLink>
            </li>
          </ul>
        </>
      )}
      <ThemeSwitch />
      <LocalePicker />
    </nav>
  );
}
