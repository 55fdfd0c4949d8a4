/**
 * One of six reading states of a reader's books in one series (index 0 first), so a library mixes
 * them all: 0 nothing read, 1 the first read, 2 the first read and the second under way, 3 all read,
 * 4 only the second read, 5 the first and third read. `mark` records one book read (or under way).
 */
export function markReadingShape(shape: number, books: number, mark: (index: number, completed: boolean) => void): void {
  if (shape === 1) mark(0, true);
  if (shape === 2) { mark(0, true); mark(1, false); }
  if (shape === 3) for (let i = 0; i < books; i++) mark(i, true);
  if (shape === 4) mark(1, true);
  if (shape === 5) { mark(0, true); mark(2, true); }
}
