import type { Link } from '@readium/shared';
import { t } from '../../i18n.ts';
import * as epubStyles from './epubReader.css.ts';
import { INITIAL_FOCUS, ReaderDialog } from '../ReaderDialog.tsx';

interface TocDialogProps {
  entries: readonly Link[];
  /** The entry where the reader is (currentTocEntry), marked as current. */
  current: Link | null;
  onPick: (link: Link) => void;
  onClose: () => void;
  /** The server could not read the table of contents just now (not: the book has none). */
  unavailable?: boolean;
}

function Entries({ entries, current, onPick }: { entries: readonly Link[]; current: Link | null; onPick: (link: Link) => void }) {
  return (
    <ul className={epubStyles.tocList}>
      {entries.map((entry, index) => (
        <li key={`${index}-${entry.href}`}>
          <button
            type="button"
            className={epubStyles.tocButton}
            aria-current={entry === current ? 'true' : undefined}
            {...(entry === current ? { [INITIAL_FOCUS]: '' } : {})}
            onClick={() => onPick(entry)}
          >
            {entry.title || t('reader.epub.untitled_chapter', { number: index + 1 })}
          </button>
          {entry.children && entry.children.items.length > 0 && <Entries entries={entry.children.items} current={current} onPick={onPick} />}
        </li>
      ))}
    </ul>
  );
}

/**
 * The book's table of contents (nested as the book has it); picking an entry goes there. It opens
 * at the entry being read, focused: in a novel of 40 or 150 chapters the first entries are far away.
 */
export function TocDialog({ entries, current, onPick, onClose, unavailable = false }: TocDialogProps) {
  return (
    <ReaderDialog title={t('reader.epub.contents')} onClose={onClose}>
      {entries.length === 0 ? (
        <p role={unavailable ? 'alert' : undefined}>{t(unavailable ? 'reader.epub.contents_unavailable' : 'reader.epub.no_contents')}</p>
      ) : (
        <nav className={epubStyles.tocScroller} aria-label={t('reader.epub.contents')}>
          <Entries entries={entries} current={current} onPick={onPick} />
        </nav>
      )}
    </ReaderDialog>
  );
}
