import { FileSearch, Image, ListPlus, Pencil, Tags, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { analyzeContent, deleteContentFiles, refreshContentMetadata, type ContentScope } from '../../api/contentActions.ts';
import { ConfirmDeleteDialog } from '../dialogs/ConfirmDeleteDialog.tsx';
import { PostersDialog } from '../dialogs/PostersDialog.tsx';
import { AddToGroupDialog } from '../dialogs/AddToGroupDialog.tsx';
import { useActionFailure, type ActionFailure } from '../hooks/useActionFailure.ts';
import { t } from '../i18n.ts';
import { isAdmin, session } from '../store/session.ts';
import { DisclosureMenu } from './DisclosureMenu.tsx';
import { ErrorMessage, LiveStatus } from './Feedback.tsx';

/** Admin-only "Analyse" and "Refresh metadata" for one book or series, with a started/failed note. */
export function ContentAdminActions(props: {
  scope: ContentScope;
  id: string;
  name: string;
  onEdit?: () => void;
  onDeleted?: () => void;
  /** Called after the poster changed, so the page can show the new one. */
  onPosterChanged?: () => void;
  /** The page's own failure slot, shared with its other actions; without it, the menu shows its own. */
  failures?: ActionFailure;
}) {
  const { scope, id, name, onEdit, onDeleted, onPosterChanged } = props;
  const { me } = useSnapshot(session);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const ownFailures = useActionFailure();
  const failures = props.failures ?? ownFailures;
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [posters, setPosters] = useState(false);
  if (!isAdmin(me)) return null;
  const groupKind = scope === 'series' ? 'collection' : 'readlist';

  async function start(run: () => Promise<void>, startedKey: string) {
    setNotice(undefined);
    failures.clear();
    try {
      await run();
      setNotice(t(startedKey));
    } catch (failure) {
      failures.report(failure);
    }
  }

  return (
    <>
      <DisclosureMenu
        label={t(scope === 'books' ? 'content_actions.book_label' : 'content_actions.series_label')}
        actions={[
          ...(onEdit
            ? [
                {
                  key: 'edit',
                  label: t(scope === 'books' ? 'edit_book.title' : 'edit_series.title'),
                  icon: <Pencil aria-hidden="true" size={16} />,
                  run: onEdit,
                },
              ]
            : []),
          {
            key: 'posters',
            label: t('posters.title'),
            icon: <Image aria-hidden="true" size={16} />,
            run: () => setPosters(true),
          },
          {
            key: 'analyze',
            label: t('libraries.actions.analyze'),
            icon: <FileSearch aria-hidden="true" size={16} />,
            run: () => void start(() => analyzeContent(scope, id), 'libraries.actions.analyze_started'),
          },
          {
            key: 'refresh',
            label: t('libraries.actions.refresh_metadata'),
            icon: <Tags aria-hidden="true" size={16} />,
            run: () => void start(() => refreshContentMetadata(scope, id), 'libraries.actions.refresh_started'),
          },
          {
            key: 'group',
            label: t(`groups.add_dialog.${groupKind}_title`),
            icon: <ListPlus aria-hidden="true" size={16} />,
            run: () => setAdding(true),
          },
          {
            key: 'delete',
            label: t(scope === 'books' ? 'content_actions.delete_book' : 'content_actions.delete_series'),
            icon: <Trash2 aria-hidden="true" size={16} />,
            danger: true,
            run: () => setDeleting(true),
          },
        ]}
      />
      <PostersDialog
        owner={scope}
        id={id}
        open={posters}
        onClose={() => setPosters(false)}
        onChanged={() => onPosterChanged?.()}
      />
      <ConfirmDeleteDialog
        open={deleting}
        title={t(scope === 'books' ? 'content_actions.delete_book' : 'content_actions.delete_series')}
        explanation={t(scope === 'books' ? 'content_actions.delete_book_explanation' : 'content_actions.delete_series_explanation', { name })}
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await deleteContentFiles(scope, id);
          setDeleting(false);
          onDeleted?.();
        }}
      />
      <AddToGroupDialog
        kind={groupKind}
        memberIds={[id]}
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(name) => {
          setAdding(false);
          failures.clear();
          setNotice(t('groups.add_dialog.added', { name }));
        }}
      />
      <LiveStatus as="span" message={notice} />
      {!props.failures && <ErrorMessage error={failures.failure} onDismiss={failures.clear} />}
    </>
  );
}
