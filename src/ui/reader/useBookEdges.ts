import { useCallback, useMemo } from 'react';
import { useLocation } from 'wouter';
import type { BookDto } from '../../api/types.ts';
import { EdgeGuard, type Edge } from '../../engine/EdgeGuard.ts';
import { t } from '../i18n.ts';
import { prefetchBook } from './bookLoader.ts';
import { readerSearch, type ReaderQuery } from './readerQuery.ts';
import { useTimedMessage } from './useTimedMessage.ts';

export interface Siblings {
  previous: BookDto | null;
  next: BookDto | null;
}

const EDGE_MS = 3000;

/**
 * REFERENCE §5.6: going past the first or last page warns first; a second try while the warning
 * shows opens the sibling book (same context and incognito, no page) or, when there is none, leaves
 * the reader. Komga leaves only past the end; SPEC §2 asks it at both ends, so before the first
 * book's first page the second press leaves too.
 */
export function useBookEdges(siblings: Siblings, query: ReaderQuery, backHref: string) {
  const [, navigate] = useLocation();
  const guard = useMemo(() => new EdgeGuard(EDGE_MS), []);
  const [message, setMessage, holdProps] = useTimedMessage(EDGE_MS);

  const goToBook = useCallback(
    (target: BookDto | null) => {
      if (target) navigate(`/book/${encodeURIComponent(target.id)}/read${readerSearch(query, null)}`);
    },
    [navigate, query],
  );

  const exit = useCallback(() => navigate(backHref), [navigate, backHref]);

  const hitEdge = useCallback(
    (edge: Edge) => {
      const verdict = guard.attempt(edge, Date.now());
      if (verdict === 'ignore') return;
      if (verdict === 'go') {
        setMessage(null);
        const sibling = edge === 'end' ? siblings.next : siblings.previous;
        if (sibling) goToBook(sibling);
        else exit();
        return;
      }
      // The reader is one press away from the sibling: start loading it now.
      const sibling = edge === 'end' ? siblings.next : siblings.previous;
      if (sibling) prefetchBook(sibling.id);
      const where = edge === 'end' ? t('reader.end_of_book') : t('reader.start_of_book');
      const again = sibling
        ? t(edge === 'end' ? 'reader.again_next_book' : 'reader.again_previous_book')
        : t(edge === 'end' ? 'reader.again_exit' : 'reader.again_exit_back');
      setMessage(t('reader.edge_notice', { where, again }));
    },
    [guard, siblings, goToBook, exit, setMessage],
  );

  /** A page turn that worked: any pending confirmation is void. */
  const moved = useCallback(() => {
    guard.reset();
    setMessage(null);
  }, [guard, setMessage]);

  return useMemo(() => ({ message, holdProps, hitEdge, moved, goToBook, exit }), [message, holdProps, hitEdge, moved, goToBook, exit]);
}
