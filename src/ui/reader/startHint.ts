import type { ReadingDirection } from '../../api/types.ts';

/**
 * What the server said in the page about the book a cold load of a reader's address opens
 * (server/http/reader-hints.ts): written only for a signed-in caller who may read it, in a meta
 * element at the top of the head (parsed by the time the boot module runs). Null on any other page,
 * and in the development server's.
 */
export interface StartHint {
  /** The page the reader opens at, by the client's own rule (bookLoader.ts startPageFor). */
  page: number;
  /** The book's series: asked for beside the book instead of once the book has come back. */
  seriesId: string;
  /** The series' reading direction ('' when it has none); undefined when the server did not say. */
  seriesDirection?: ReadingDirection | '';
  /** The book's version (api/books.ts pageVersion): the page is asked for at its reader's address. */
  version?: string;
  /** The start page's listed size, when known (its opening image is then in the document: openingImage.ts). */
  size?: { width: number; height: number };
}

const DIRECTIONS = new Set(['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL', 'WEBTOON', '']);

export function readStartHint(): StartHint | null {
  const meta = globalThis.document?.querySelector<HTMLMetaElement>('meta[name="folio-start-page"][data-folio-series]');
  if (!meta) return null;
  const page = Number(meta.content);
  const { folioSeries: seriesId, folioDirection: direction, folioVersion: version, folioWidth, folioHeight } = meta.dataset;
  if (!(Number.isInteger(page) && page > 0 && seriesId)) return null;
  const width = Number(folioWidth);
  const height = Number(folioHeight);
  return {
    page,
    seriesId,
    ...(direction !== undefined && DIRECTIONS.has(direction) ? { seriesDirection: direction as ReadingDirection | '' } : {}),
    ...(version ? { version } : {}),
    ...(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 ? { size: { width, height } } : {}),
  };
}
