import { Check, FileSearch, ListPlus, Pencil, Tags, Trash2, Undo2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { deleteReadProgress, updateReadProgress } from '../../api/books.ts';
import { analyzeContent, deleteContentFiles, refreshContentMetadata } from '../../api/contentActions.ts';
import { setSeriesRead } from '../../api/readProgressSeries.ts';
import { AddToGroupDialog } from '../dialogs/AddToGroupDialog.tsx';
import { BatchEditBooksDialog } from '../dialogs/BatchEditBooksDialog.tsx';
import { BatchEditSeriesDialog } from '../dialogs/BatchEditSeriesDialog.tsx';
import { ConfirmDeleteDialog } from '../dialogs/ConfirmDeleteDialog.tsx';
import { t, tPlural } from '../i18n.ts';
import { isAdmin, session } from '../store/session.ts';
import * as buttons from './buttons.css.ts';
import { ErrorMessage, LiveStatus } from './Feedback.tsx';
import * as styles from './selection.css.ts';
import { flipInRtl } from '../theme/direction.css.ts';

/**
 * Actions on the books or series ticked in a grid (issue 6): read state for everybody; edit,
 * add to a read list or collection, analyse, refresh and delete for admins.
 */
export function SelectionToolbar(props: {
  kind: 'books' | 'series';
  ids: string[];
  onClear: () => void;
  onChanged: () => void;
  /** Names a selected item in messages about it (falls back to its id). */
  titleOf?: (id: string) => string;
}) {
  const { kind, ids, onClear, onChanged, titleOf } = props;
  const { me } = useSnapshot(session);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [dialog, setDialog] = useState<'edit' | 'group' | 'delete' | null>(null);
  const admin = isAdmin(me);
  const empty = ids.length === 0;
  const anchorRef = useRef<HTMLSpanElement>(null);
  const wasSelecting = useRef(!empty);
  // Clearing the selection (an action done, Clear, a confirmed delete) removes the toolbar and any
  // dialog it opened, with the control that had focus: a keyboard user would be dropped on <body>,
  // before the page. They go on from the screen's content, as after a navigation.
  useEffect(() => {
    const dropped = document.activeElement === null || document.activeElement === document.body;
    if (empty && wasSelecting.current && dropped) anchorRef.current?.closest('main')?.focus({ preventScroll: true });
    wasSelecting.current = !empty;
  }, [empty]);
  const anchor = <span ref={anchorRef} hidden />;
  // The outcome of the last action stays readable after the selection is cleared.
  if (empty) {
    return (
      <>
        {anchor}
        <LiveStatus key="notice" message={notice} className={styles.notice} />
        <ErrorMessage error={error} />
      </>
    );
  }

  async function forEach(action: (id: string) => Promise<void>, done?: string, clear = true) {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      for (const id of ids) await action(id);
      if (done) setNotice(done);
      onChanged();
      if (clear) onClear();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const afterBatchEdit = () => {
    setDialog(null);
    onChanged();
    onClear();
  };

  const markRead = (read: boolean) =>
    forEach((id) =>
      kind === 'series'
        ? setSeriesRead(id, read)
        : read
          ? updateReadProgress(id, { completed: true })
          : deleteReadProgress(id),
    );

  return (
    <>
      {anchor}
      <div role="toolbar" aria-label={t('selection.label')} className={styles.toolbar}>
        <span className={styles.count}>{tPlural('selection.count', ids.length)}</span>
        <button type="button" className={buttons.quiet} disabled={busy} onClick={() => void markRead(true)}>
          <Check aria-hidden="true" size={16} />
          {t('book.mark_read')}
        </button>
        <button type="button" className={buttons.quiet} disabled={busy} onClick={() => void markRead(false)}>
          <Undo2 className={flipInRtl} aria-hidden="true" size={16} />
          {t('book.mark_unread')}
        </button>
        {admin && (
          <>
            <button type="button" className={buttons.quiet} disabled={busy} onClick={() => setDialog('edit')}>
              <Pencil aria-hidden="true" size={16} />
              {t('selection.edit')}
            </button>
            <button type="button" className={buttons.quiet} disabled={busy} onClick={() => setDialog('group')}>
              <ListPlus aria-hidden="true" size={16} />
              {t(kind === 'books' ? 'groups.add_dialog.readlist_title' : 'groups.add_dialog.collection_title')}
            </button>
            <button
              type="button"
              className={buttons.quiet}
              disabled={busy}
              onClick={() => void forEach((id) => analyzeContent(kind, id), t('libraries.actions.analyze_started'), false)}
            >
              <FileSearch aria-hidden="true" size={16} />
              {t('libraries.actions.analyze')}
            </button>
            <button
              type="button"
              className={buttons.quiet}
              disabled={busy}
              onClick={() => void forEach((id) => refreshContentMetadata(kind, id), t('libraries.actions.refresh_started'), false)}
            >
              <Tags aria-hidden="true" size={16} />
              {t('libraries.actions.refresh_metadata')}
            </button>
            <button type="button" className={`${buttons.quiet} ${styles.danger}`} disabled={busy} onClick={() => setDialog('delete')}>
              <Trash2 aria-hidden="true" size={16} />
              {t('selection.delete')}
            </button>
          </>
        )}
        <button type="button" className={buttons.quiet} onClick={onClear}>
          <X aria-hidden="true" size={16} />
          {t('selection.clear')}
        </button>
      </div>
      <LiveStatus key="notice" message={notice} className={styles.notice} />
      <ErrorMessage error={error} />
      {admin && (
        <>
          {kind === 'books' ? (
            <BatchEditBooksDialog
              bookIds={ids}
              open={dialog === 'edit'}
              onClose={() => setDialog(null)}
              onSaved={afterBatchEdit}
            />
          ) : (
            <BatchEditSeriesDialog
              seriesIds={ids}
              titleOf={titleOf}
              open={dialog === 'edit'}
              onClose={() => setDialog(null)}
              onChanged={onChanged}
              onSaved={afterBatchEdit}
            />
          )}
          <AddToGroupDialog
            kind={kind === 'books' ? 'readlist' : 'collection'}
            memberIds={ids}
            open={dialog === 'group'}
            onClose={() => setDialog(null)}
            onAdded={(name) => {
              setDialog(null);
              setNotice(t('groups.add_dialog.added', { name }));
              onClear();
            }}
          />
          <ConfirmDeleteDialog
            open={dialog === 'delete'}
            title={t('selection.delete')}
            explanation={tPlural(kind === 'books' ? 'selection.delete_books_explanation' : 'selection.delete_series_explanation', ids.length)}
            onClose={() => setDialog(null)}
            onConfirm={async () => {
              for (const id of ids) await deleteContentFiles(kind, id);
              setDialog(null);
              onChanged();
              onClear();
            }}
          />
        </>
      )}
    </>
  );
}
