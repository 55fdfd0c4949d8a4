import { FileSearch, Pencil, RefreshCw, ScanSearch, Tags, Trash, Trash2 } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { scanLibrary } from '../../../api/libraries.ts';
import { analyzeLibrary, emptyLibraryTrash, refreshLibraryMetadata } from '../../../api/libraryAdmin.ts';
import { DisclosureMenu, type MenuAction } from '../../components/DisclosureMenu.tsx';
import { TabLinks } from '../../components/TabLinks.tsx';
import { ConfirmActionDialog } from '../../dialogs/ConfirmActionDialog.tsx';
import { ConfirmDeleteDialog } from '../../dialogs/ConfirmDeleteDialog.tsx';
import { DeleteLibraryDialog } from '../../dialogs/DeleteLibraryDialog.tsx';
import { EditLibraryDialog } from '../../dialogs/EditLibraryDialog.tsx';
import { EmptyState, ErrorMessage, LiveStatus } from '../../components/Feedback.tsx';
import * as buttons from '../../components/buttons.css.ts';
import { t } from '../../i18n.ts';
import { LIBRARY_VIEWS, preferences, type LibraryView } from '../../store/preferences.ts';
import { scans } from '../../store/scans.ts';
import { isAdmin, session } from '../../store/session.ts';
import * as screen from '../screens.css.ts';

export const ALL_LIBRARIES = 'all';

/** Title, scan action and the four library tabs; the tab in use is remembered per library. */
export function LibraryLayout(props: { libraryId: string; view: LibraryView; children: ReactNode }) {
  const { libraryId, view, children } = props;
  const { me, libraries } = useSnapshot(session);
  const library = libraries.find((l) => l.id === libraryId);
  // Dialogs get the store's own (mutable) record, which keeps its identity between renders.
  const libraryRecord = session.libraries.find((l) => l.id === libraryId);
  const [scanError, setScanError] = useState<unknown>(undefined);
  const [scanning, setScanning] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'analyze' | 'refresh' | 'trash' | null>(null);
  const [, navigate] = useLocation();

  useEffect(() => {
    preferences.libraryViews[libraryId] = view;
  }, [libraryId, view]);

  if (libraryId !== ALL_LIBRARIES && !library) return <EmptyState>{t('libraries.not_found')}</EmptyState>;

  async function scan(deep = false) {
    setScanError(undefined);
    setNotice(undefined);
    setScanning(true);
    try {
      await scanLibrary(libraryId, deep);
      scans[libraryId] = Date.now();
    } catch (error) {
      setScanError(error);
    } finally {
      setScanning(false);
    }
  }

  /**
   * Server-side tasks, confirmed first (SPEC §2 lists them as dialogs): they start in the background,
   * so success means "started"; a failure to start stays in the dialog.
   */
  async function startTask(run: () => Promise<void>, startedKey: string) {
    setNotice(undefined);
    await run();
    setDialog(null);
    setNotice(t(startedKey));
  }

  const actions: MenuAction[] = [
    { key: 'deep', label: t('libraries.actions.deep_scan'), icon: <ScanSearch aria-hidden="true" size={16} />, run: () => void scan(true) },
    {
      key: 'analyze',
      label: t('libraries.actions.analyze'),
      icon: <FileSearch aria-hidden="true" size={16} />,
      run: () => setDialog('analyze'),
    },
    {
      key: 'refresh',
      label: t('libraries.actions.refresh_metadata'),
      icon: <Tags aria-hidden="true" size={16} />,
      run: () => setDialog('refresh'),
    },
    {
      key: 'trash',
      label: t('libraries.actions.empty_trash'),
      icon: <Trash aria-hidden="true" size={16} />,
      run: () => setDialog('trash'),
    },
    { key: 'edit', label: t('libraries.actions.edit'), icon: <Pencil aria-hidden="true" size={16} />, run: () => setDialog('edit') },
    {
      key: 'delete',
      label: t('libraries.actions.delete'),
      icon: <Trash2 aria-hidden="true" size={16} />,
      danger: true,
      run: () => setDialog('delete'),
    },
  ];

  return (
    <>
      <div className={screen.pageHeader}>
        <h1 className={screen.pageTitle}>{library ? library.name : t('nav.all_libraries')}</h1>
        {isAdmin(me) && library && (
          <>
            <button type="button" className={buttons.secondary} onClick={() => void scan()} disabled={scanning}>
              <RefreshCw aria-hidden="true" size={16} />
              {t('libraries.scan')}
            </button>
            <DisclosureMenu label={t('libraries.actions.label')} actions={actions} />
            {libraryRecord && (
              <>
                <EditLibraryDialog library={libraryRecord} open={dialog === 'edit'} onClose={() => setDialog(null)} />
                <ConfirmActionDialog
                  open={dialog === 'analyze'}
                  title={t('libraries.actions.analyze')}
                  explanation={t('libraries.confirm.analyze', { name: libraryRecord.name })}
                  confirmLabel={t('libraries.actions.analyze')}
                  onClose={() => setDialog(null)}
                  onConfirm={() => startTask(() => analyzeLibrary(libraryId), 'libraries.actions.analyze_started')}
                />
                <ConfirmActionDialog
                  open={dialog === 'refresh'}
                  title={t('libraries.actions.refresh_metadata')}
                  explanation={t('libraries.confirm.refresh', { name: libraryRecord.name })}
                  confirmLabel={t('libraries.actions.refresh_metadata')}
                  onClose={() => setDialog(null)}
                  onConfirm={() => startTask(() => refreshLibraryMetadata(libraryId), 'libraries.actions.refresh_started')}
                />
                <ConfirmDeleteDialog
                  open={dialog === 'trash'}
                  title={t('libraries.actions.empty_trash')}
                  explanation={t('libraries.confirm.trash', { name: libraryRecord.name })}
                  confirmLabel={t('libraries.actions.empty_trash')}
                  onClose={() => setDialog(null)}
                  onConfirm={() => startTask(() => emptyLibraryTrash(libraryId), 'libraries.actions.trash_started')}
                />
                <DeleteLibraryDialog
                  library={libraryRecord}
                  open={dialog === 'delete'}
                  onClose={() => setDialog(null)}
                  onDeleted={() => {
                    setDialog(null);
                    navigate('/dashboard');
                  }}
                />
              </>
            )}
          </>
        )}
      </div>
      <ErrorMessage error={scanError} />
      <LiveStatus as="p" className={screen.summary} message={notice} />
      <TabLinks
        label={t('libraries.tabs.label')}
        tabs={LIBRARY_VIEWS.map((tab) => ({ key: tab, href: `/libraries/${libraryId}/${tab}`, label: t(`libraries.tabs.${tab}`) }))}
        current={view}
      />
      {children}
    </>
  );
}
