import { searchBooks, type SearchCondition } from './browse.ts';
import { getBook } from './books.ts';
import { getReadListBooks, type ReadListDto } from './collections.ts';
import type { BookDto } from './types.ts';

/** The books before and after one book; null at either end. */
export interface Neighbours {
  previous: BookDto | null;
  next: BookDto | null;
}

/**
 * A book's neighbours in its series, in the order of the server's next/previous (number sort, then
 * id, books whose file is gone left out), found with list calls that answer 200 even at the ends.
 * `/books/{id}/next` and `/previous` answer 404 past the first and last book, as Komga's do, and a
 * browser shows every 404 as an error in its console however the app takes it.
 *
 * First the nearest number below and above the book's own, then every book at those three numbers
 * in series order: a number shared by several books (a tie the server orders by id) stays in place.
 */
export async function seriesNeighbours(book: BookDto): Promise<Neighbours> {
  const inSeries: SearchCondition[] = [{ seriesId: { operator: 'is', value: book.seriesId } }, { deleted: { operator: 'isFalse' } }];
  const own = book.metadata.numberSort;
  const nearest = async (operator: 'lessThan' | 'greaterThan') => {
    const page = await searchBooks(
      { condition: { allOf: [...inSeries, { numberSort: { operator, value: own } }] } },
      { size: 1, sort: [`metadata.numberSort,${operator === 'lessThan' ? 'desc' : 'asc'}`] },
    );
    return page.content[0]?.metadata.numberSort;
  };
  const [below, above] = await Promise.all([nearest('lessThan'), nearest('greaterThan')]);
  const numbers = [below, own, above].filter((n) => n !== undefined);
  // Unpaged: three numbers' books, as many as the series has books sharing those numbers.
  const around = await searchBooks(
    { condition: { allOf: [...inSeries, { anyOf: numbers.map((value) => ({ numberSort: { operator: 'is', value } })) }] } },
    { unpaged: true, sort: ['metadata.numberSort,asc'] },
  );
  return neighboursIn(around.content, book.id);
}

/**
 * A book's neighbours in a read list the user sees: an ordered list's visible books are its
 * `bookIds`, in order, so only the two neighbours are asked for; an unordered one is listed by
 * release date, which only its books' list gives.
 */
export async function readListNeighbours(list: ReadListDto, bookId: string): Promise<Neighbours> {
  if (!list.ordered) {
    const books = await getReadListBooks(list.id, {}, { unpaged: true });
    return neighboursIn(books.content, bookId);
  }
  const index = list.bookIds.indexOf(bookId);
  const fetchAt = (i: number) => {
    const id = index < 0 ? undefined : list.bookIds[i];
    return id === undefined ? null : getBook(id);
  };
  const [previous, next] = await Promise.all([fetchAt(index - 1), fetchAt(index + 1)]);
  return { previous, next };
}

function neighboursIn(books: BookDto[], bookId: string): Neighbours {
  const index = books.findIndex((book) => book.id === bookId);
  if (index < 0) return { previous: null, next: null };
  return { previous: books[index - 1] ?? null, next: books[index + 1] ?? null };
}
