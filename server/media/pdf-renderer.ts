import { MediaError } from './book-reader.ts';
import type { CheckedFile } from './checked-file.ts';
import type { PdfRequest, PdfResult } from './pdf-protocol.ts';
import { ARCHIVE_WAITING_PER_LANE, ARCHIVE_WORKERS, SerialWorker } from './serial-worker.ts';
import { TimedOutInputs } from './timed-out-inputs.ts';

/**
 * Longest one PDF call may run before its worker is ended. A page can cost mupdf far more than its
 * size says: a 2 KB page drawing a form that draws the next form twice, twenty deep, takes a minute,
 * thirty deep a day, and every PDF read waits behind it.
 */
const CALL_TIME_LIMIT_MS = 30_000;
/** Calls waiting for the worker; beyond this the server is busy (503 + Retry-After), not broken. */
const MAX_WAITING = 64;

/**
 * Main-thread side of the PDF workers (serial-worker.ts): mupdf starts with the first PDF request,
 * not at server start, each call within CALL_TIME_LIMIT_MS. A small pool (ARCHIVE_WORKERS), shared
 * out by caller and by book: with one worker, a single hostile page held every PDF reader and the
 * analysis of every PDF book for the whole time limit, and a few of them queued held it for
 * minutes. Now one book, or one user, holds at most all but one of the workers.
 */
export const pdfWorker = new SerialWorker<PdfRequest, PdfResult>({
  workers: ARCHIVE_WORKERS,
  bookOf: (request) => `${request.file.dev}:${request.file.ino}`,
  maxWaitingPerLane: ARCHIVE_WAITING_PER_LANE,
  script: new URL('./pdf-render-worker.ts', import.meta.url),
  name: 'PDF',
  timeLimitMs: CALL_TIME_LIMIT_MS,
  maxWaiting: MAX_WAITING,
  busy: 'too many PDF pages are being drawn at once',
  describe: (request) => `PDF ${request.op} of ${request.file.path}`,
});

/** Page sizes in points, in page order. */
export async function describePdf(file: CheckedFile, version: string): Promise<[number, number][]> {
  const result = await pdfWorker.call({ op: 'describe', file, version });
  if (!result || !('sizes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return result.sizes;
}

/** Pages whose drawing ran out of time lately fail at once for a while (timed-out-inputs.ts). */
const timedOut = new TimedOutInputs();

/** One page (0-based) drawn as JPEG or PNG, fitting the hint or at the default size. */
export async function renderPdfPage(
  file: CheckedFile,
  version: string,
  page: number,
  options: { maxWidth?: number; maxHeight?: number; format: 'jpeg' | 'png' },
  caller?: string,
): Promise<Buffer> {
  const key = `${version}\u0000${page}\u0000${file.dev}:${file.ino}`;
  const result = await timedOut.run(key, `PDF render of ${file.path} page ${page + 1}`, pdfWorker.timeLimitMs, () =>
    pdfWorker.call({
      op: 'render',
      file,
      version,
      page,
      maxWidth: options.maxWidth,
      maxHeight: options.maxHeight,
      format: options.format,
    }, caller),
  );
  if (!result || !('bytes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return Buffer.from(result.bytes);
}

/** One page (0-based) as a standalone one-page PDF. */
export async function extractPdfPage(file: CheckedFile, version: string, page: number, caller?: string): Promise<Buffer> {
  const result = await pdfWorker.call({ op: 'extract', file, version, page }, caller);
  if (!result || !('bytes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return Buffer.from(result.bytes);
}

/**
 * Lets each worker close its own descriptor on a file (the book was closed or changed), after the
 * call it is running. Nothing waits for it; a worker ended meanwhile holds nothing any more (its
 * descriptors went with it), and one whose close fails keeps the document until its cache pushes
 * it out, and a warning says so.
 */
export function closePdf(file: CheckedFile): void {
  // Only bother a worker that exists; closing must not start mupdf.
  if (!pdfWorker.isRunning()) return;
  // Every worker that drew the book may hold it (the pool shares them out): each is asked.
  pdfWorker.callEach({ op: 'close', file }).catch((error: unknown) => {
    process.emitWarning(`the PDF worker could not close ${file.path}: ${error instanceof Error ? error.message : String(error)}`);
  });
}
