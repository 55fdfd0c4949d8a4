import { ArrowUp, Folder } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { listDirectory } from '../../api/filesystem.ts';
import { ErrorMessage, Loading } from '../components/Feedback.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { t } from '../i18n.ts';
import * as styles from './dialog.css.ts';
import { Modal } from './Modal.tsx';

/** The server's folders, browsed one level at a time, to pick a library root or an import folder. */
export function FolderBrowserDialog(props: { open: boolean; initialPath: string; onChoose: (path: string) => void; onClose: () => void }) {
  const { open, initialPath, onChoose, onClose } = props;
  const [path, setPath] = useState(initialPath);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) setPath(initialPath);
    wasOpen.current = open;
  }, [open, initialPath]);
  const listing = useAsync(() => (open ? listDirectory(path) : Promise.resolve(null)), [path, open]);
  const data = listing.data;

  // Going into a folder (or up) replaces the list, and the pressed button with it: focus would fall
  // on <body>, and a keyboard user would Tab through the dialog again at every level. Once the new
  // level is listed, its first entry takes the focus (the way up, or the first folder).
  const listRef = useRef<HTMLUListElement>(null);
  const wentFromList = useRef(false);
  const go = (next: string) => {
    wentFromList.current = listRef.current?.contains(document.activeElement) ?? false;
    setPath(next);
  };
  useEffect(() => {
    if (!data || !wentFromList.current) return;
    wentFromList.current = false;
    const dropped = document.activeElement === null || document.activeElement === document.body;
    if (dropped) listRef.current?.querySelector('button')?.focus();
  }, [data]);

  return (
    <Modal open={open} title={t('folders.title')} onClose={onClose} onSubmit={() => onChoose(path || '/')} submitLabel={t('folders.choose')}>
      {/* A live region from the start: the folder reached is said as the list changes under the focus. */}
      <p role="status">
        {t('folders.current')} <code>{path || '/'}</code>
      </p>
      <ErrorMessage error={listing.error} />
      {listing.loading && !data && <Loading />}
      <div className={styles.scrollBody} style={{ maxHeight: '45vh' }}>
        <ul className={styles.pickList} ref={listRef}>
          {data?.parent !== undefined && data?.parent !== null && (path || '/') !== '/' && (
            <li>
              <button type="button" className={buttons.quiet} onClick={() => go(data.parent || '/')}>
                <ArrowUp aria-hidden="true" size={16} />
                {t('folders.parent')}
              </button>
            </li>
          )}
          {data?.directories.map((directory) => (
            <li key={directory.path}>
              <button type="button" className={buttons.quiet} onClick={() => go(directory.path)}>
                <Folder aria-hidden="true" size={16} />
                {directory.name}
              </button>
            </li>
          ))}
        </ul>
        {data && data.directories.length === 0 && <p className={feedback.muted}>{t('folders.empty')}</p>}
      </div>
    </Modal>
  );
}
