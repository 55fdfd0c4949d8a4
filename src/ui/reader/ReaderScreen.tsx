import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import { readListNeighbours, seriesNeighbours } from '../../api/bookNeighbours.ts';
import { getReadList } from '../../api/collections.ts';
import { t } from '../i18n.ts';
import { libraryUnavailable } from '../components/unavailable.ts';
import { session } from '../store/session.ts';
import { loadBook, startPageFor, type LoadedBook } from './bookLoader.ts';
import { readerTitle } from './bookTitle.ts';
import { describeReaderError, isBookNotFound } from './readerErrors.ts';
import { isTextEpub } from './bookKind.ts';
import { Reader, type Siblings } from './Reader.tsx';
import * as styles from './reader.css.ts';
import { bookPageHref, parseReaderQuery } from './readerQuery.ts';
import { ReaderStop } from './ReaderStop.tsx';


type LoadState =
  | { status: 'loading' }
  | { status: 'error'; message: string; bookFound: boolean }
  | ({ status: 'ready' } & LoadedBook);

const NO_SIBLINGS: Siblings = { previous: null, next: null };

// The EPUB reader (the rendering library, the sanitizer) loads only when a text book is opened.
const EpubReader = lazy(() => import('./epub/EpubReader.tsx').then((m) => ({ default: m.EpubReader })));

/** Route /book/:bookId/read — loads the book, its pages and series, then hands over to the reader. */
export function ReaderScreen({ bookId }: { bookId: string }) {
  const search = useSearch();
  // Read once per book: the reader itself rewrites ?page= while reading.
  const query = useMemo(() => parseReaderQuery(search), [bookId]);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [siblings, setSiblings] = useState<Siblings>(NO_SIBLINGS);

  useEffect(() => {
    let cancelled = false;
    setState({ status: 'loading' });
    setSiblings(NO_SIBLINGS);
    const loading = loadBook(bookId, query.page);
    loading.then(
      (loaded) => {
        if (cancelled) return;
        document.title = t('app.title_with_page', { title: readerTitle(loaded.book), product: t('common.product_name') });
        setState({ status: 'ready', ...loaded });
      },
      (error: unknown) => {
        // A book removed since (opened from history or an old link) has no page to go back to.
        const bookFound = !isBookNotFound(error);
        if (!cancelled) setState({ status: 'error', message: describeReaderError(error), bookFound });
      },
    );
    // Siblings arrive in the background; without them the reader only offers no next book.
    // Opened from a read list, "next" and "previous" follow the list rather than the series.
    const readListId = query.context === 'READLIST' ? query.contextId : null;
    const neighbours = readListId
      ? getReadList(readListId).then((list) => readListNeighbours(list, bookId))
      : // A book that failed to load says so itself, and has no next book to offer.
        loading.then((loaded) => seriesNeighbours(loaded.book), () => NO_SIBLINGS);
    neighbours.then(
      (found) => {
        if (!cancelled) setSiblings(found);
      },
      (error: unknown) => console.warn(`The books next to ${bookId} could not be found; the reader offers none`, error),
    );
    return () => {
      cancelled = true;
    };
  }, [bookId, query]);

  const bookHref = `/book/${encodeURIComponent(bookId)}`;
  if (state.status === 'error') return <ReaderStop message={state.message} bookHref={state.bookFound ? bookHref : null} />;
  if (state.status === 'loading') {
    return (
      <div className={styles.screen}>
        <div className={styles.message} role="status">
          {t('reader.loading')}
        </div>
      </div>
    );
  }

  const { book, pages } = state;
  // Its record outlives the file until the trash is emptied, but no page can be read any more.
  if (book.deleted) return <ReaderStop message={t('content.book_unavailable')} bookHref={bookHref} />;
  // Its whole library's folder cannot be reached: every page would answer 404.
  if (libraryUnavailable(session.libraries, book.libraryId)) return <ReaderStop message={t('content.library_unavailable')} bookHref={bookHref} />;
  // Read from a read list, the way out is the book's page within that list.
  const backHref = bookPageHref(book.id, query);
  if (isTextEpub(book)) {
    const loading = (
      <div className={styles.screen}>
        <div className={styles.message} role="status">
          {t('reader.loading')}
        </div>
      </div>
    );
    return (
      <Suspense fallback={loading}>
        <EpubReader key={book.id} book={book} title={readerTitle(book)} siblings={siblings} query={query} backHref={backHref} />
      </Suspense>
    );
  }
  if (pages.length === 0) return <ReaderStop message={t('reader.no_pages')} bookHref={bookHref} />;
  // Reopening a finished book must not turn it back into "in progress" (a Komga quirk we avoid).
  const reopeningFinished = query.page === null && book.readProgress?.completed === true;
  return (
    <Reader
      key={book.id}
      book={book}
      pages={pages}
      title={readerTitle(book)}
      seriesDirection={state.seriesDirection}
      siblings={siblings}
      query={query}
      startPage={startPageFor(book, pages.length, query.page)}
      reportStartPage={!reopeningFinished}
      backHref={backHref}
    />
  );
}
