/** The reader's query string (REFERENCE §5): ?page=&incognito=&context=&contextId= */
export interface ReaderQuery {
  page: number | null;
  incognito: boolean;
  context: string | null;
  contextId: string | null;
}

export function parseReaderQuery(search: string): ReaderQuery {
  const params = new URLSearchParams(search);
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    page: Number.isInteger(page) && page > 0 ? page : null,
    incognito: params.get('incognito') === 'true',
    context: params.get('context'),
    contextId: params.get('contextId'),
  };
}

/** The query to carry to another book (no page: it opens at its own saved position). */
export function readerSearch(query: ReaderQuery, page: number | null): string {
  const params = new URLSearchParams();
  if (page !== null) params.set('page', String(page));
  if (query.context) params.set('context', query.context);
  if (query.contextId) params.set('contextId', query.contextId);
  if (query.incognito) params.set('incognito', 'true');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The reader's address for a book, from its book page: opened from a read list (`?readlist=` on
 * that page), the reader gets the read-list context, so its next and previous books are the list's.
 */
export function readerHref(bookId: string, readListId: string | undefined, incognito = false): string {
  const context = readListId ? { context: 'READLIST', contextId: readListId } : { context: null, contextId: null };
  return `/book/${encodeURIComponent(bookId)}/read${readerSearch({ page: null, incognito, ...context }, null)}`;
}

/** The book page the reader leaves to: inside the read list it was read from, if any. */
export function bookPageHref(bookId: string, query: ReaderQuery): string {
  const page = `/book/${encodeURIComponent(bookId)}`;
  return query.context === 'READLIST' && query.contextId ? `${page}?readlist=${encodeURIComponent(query.contextId)}` : page;
}
