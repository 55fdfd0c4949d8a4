/**
 * The total a page of a list reports (Spring's totalElements, from which Komga's clients page),
 * counted only when the page cannot tell it. The rows of the page were read first, in the same
 * synchronous turn as any count (one connection, no write between), so:
 * - a whole list (unpaged) holds every row: its length is the total;
 * - a page with rows that is not full is the last one: the total is its offset plus its rows;
 * - an empty first page means an empty list.
 * Only a full page, or an empty one past the start, needs the COUNT, which on a library of 50,000
 * books costs as much as the page itself (it reads every matching row).
 */
export function pageTotal(rows: number, limit: number | null, offset: number, count: () => number): number {
  if (limit === null) return rows;
  if (rows > 0 && rows < limit) return offset + rows;
  // A page of size 0 (a caller asking for the count alone) tells nothing.
  if (rows === 0 && offset === 0 && limit > 0) return 0;
  return count();
}
