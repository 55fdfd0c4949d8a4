import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  createCollection,
  createReadList,
  getCollections,
  getReadLists,
  setCollectionSeries,
  setReadListBooks,
} from '../../api/collections.ts';
import { ErrorMessage, Loading } from '../components/Feedback.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { useDebounced } from '../hooks/useDebounced.ts';
import { t } from '../i18n.ts';
import * as styles from './dialog.css.ts';
import { Modal } from './Modal.tsx';

export type GroupKind = 'collection' | 'readlist';

interface Group {
  id: string;
  name: string;
  members: string[];
}

async function findGroups(kind: GroupKind, search: string): Promise<Group[]> {
  const paging = { unpaged: true };
  if (kind === 'collection') {
    const page = await getCollections({ search: search || undefined }, paging);
    return page.content.map((c) => ({ id: c.id, name: c.name, members: c.seriesIds }));
  }
  const page = await getReadLists({ search: search || undefined }, paging);
  return page.content.map((r) => ({ id: r.id, name: r.name, members: r.bookIds }));
}

/**
 * "Add to collection" (series) / "Add to read list" (books): pick an existing one, or create a
 * new one by name. A name already in use is refused (SPEC §5) before asking the server.
 */
export function AddToGroupDialog(props: {
  kind: GroupKind;
  memberIds: string[];
  open: boolean;
  onClose: () => void;
  onAdded: (groupName: string) => void;
}) {
  const { kind, memberIds, open, onClose, onAdded } = props;
  const [search, setSearch] = useState('');
  const [newName, setNewName] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const term = useDebounced(search.trim(), 300);
  const groups = useAsync(() => (open ? findGroups(kind, term) : Promise.resolve([])), [kind, term, open]);

  useEffect(() => {
    if (open) {
      setSearch('');
      setNewName('');
      setProblem(undefined);
      setError(undefined);
    }
  }, [open]);

  async function addTo(group: Group) {
    setBusy(true);
    setError(undefined);
    try {
      const members = [...group.members, ...memberIds.filter((id) => !group.members.includes(id))];
      if (kind === 'collection') await setCollectionSeries(group.id, members);
      else await setReadListBooks(group.id, members);
      onAdded(group.name);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function create() {
    const name = newName.trim();
    if (!name) return setProblem(t('groups.add_dialog.name_required'));
    // The search list may be filtered; ask for the exact name across all of them.
    const existing = await findGroups(kind, name).catch((failure: unknown) => {
      // The check is a courtesy: the server refuses a duplicate name itself, with its own message.
      console.warn(`Could not look up existing ${kind}s named "${name}"`, failure);
      return [];
    });
    if (existing.some((g) => g.name.localeCompare(name, undefined, { sensitivity: 'accent' }) === 0)) {
      return setProblem(t(`groups.add_dialog.${kind}_exists`));
    }
    setProblem(undefined);
    setBusy(true);
    setError(undefined);
    try {
      if (kind === 'collection') await createCollection(name, memberIds);
      else await createReadList(name, memberIds);
      onAdded(name);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const list = groups.data ?? [];
  return (
    <Modal
      open={open}
      title={t(`groups.add_dialog.${kind}_title`)}
      onClose={onClose}
      onSubmit={() => void create()}
      submitLabel={t('groups.add_dialog.create')}
      submitDisabled={busy}
    >
      <TextField
        label={t(`groups.add_dialog.${kind}_search`)}
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <div className={styles.scrollBody} style={{ maxHeight: '30vh' }}>
        {groups.loading && !groups.data && <Loading />}
        {groups.data && list.length === 0 && <p className={feedback.muted}>{t(`groups.add_dialog.${kind}_none`)}</p>}
        <ul className={styles.pickList}>
          {list.map((group) => {
            const already = memberIds.every((id) => group.members.includes(id));
            return (
              <li key={group.id}>
                <button type="button" className={buttons.quiet} disabled={busy || already} onClick={() => void addTo(group)}>
                  <Plus aria-hidden="true" size={16} />
                  {group.name}
                  {already && <span className={feedback.muted}> · {t('groups.add_dialog.already_in')}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      </div>
      <TextField
        label={t(`groups.add_dialog.${kind}_new`)}
        value={newName}
        onChange={(e) => setNewName(e.target.value)}
        aria-invalid={problem ? true : undefined}
      />
      {problem && (
        <p role="alert" className={feedback.errorBox}>
          {problem}
        </p>
      )}
      <ErrorMessage error={error} />
    </Modal>
  );
}
