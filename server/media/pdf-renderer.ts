import { MediaError } from './book-reader.ts';
import type { PdfRequest, PdfResult } from './pdf-protocol.ts';
import { SerialWorker } from './serial-worker.ts';
import { OperationTimeout } from './transient-errors.ts';

/**
 * Longest one PDF call may run before its worker is ended. A page can cost mupdf far more than its
 * size says: a 2 KB page drawing a form that draws the next form twice, twenty deep, takes a minute,
 * thirty deep a day, and every PDF read waits behind it.
 */
const CALL_TIME_LIMIT_MS = 30_000;
/** Calls waiting for the worker; beyond this the server is busy (503 + Retry-After), not broken. */
const MAX_WAITING = 64;

/**
 * Main-thread side of the PDF worker (serial-worker.ts): mupdf starts with the first PDF request,
 * not at server start, and its calls run one at a time within CALL_TIME_LIMIT_MS.
 */
export const pdfWorker = new SerialWorker<PdfRequest, PdfResult>({
  script: new URL('./pdf-render-worker.ts', import.meta.url),
  name: 'PDF',
  timeLimitMs: CALL_TIME_LIMIT_MS,
  maxWaiting: MAX_WAITING,
  busy: 'too many PDF pages are being drawn at once',
  describe: (request) => `PDF ${request.op} of ${request.path}`,
});

/** Page sizes in points, in page order. */
export async function describePdf(path: string, version: string): Promise<[number, number][]> {
  const result = await pdfWorker.call({ op: 'describe', path, version });
  if (!result || !('sizes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return result.sizes;
}

/**
 * Pages whose drawing ran out of time lately (file, version, page → when): asked again within
 * TIMED_OUT_FOR_MS they fail at once instead of taking the worker for another whole time limit
 * (every reader scrolling past the book's poster would, one after the other). Memory only: a time
 * out is never recorded against the book, and the page is tried again later.
 */
const timedOut = new Map<string, number>();
const TIMED_OUT_FOR_MS = 10 * 60_000;
const TIMED_OUT_MAX = 1024;

/** One page (0-based) drawn as JPEG or PNG, fitting the hint or at the default size. */
export async function renderPdfPage(
  path: string,
  version: string,
  page: number,
  options: { maxWidth?: number; maxHeight?: number; format: 'jpeg' | 'png' },
): Promise<Buffer> {
  const key = `${version}\u0000${page}\u0000${path}`;
  const failedAt = timedOut.get(key);
  if (failedAt !== undefined && Date.now() - failedAt < TIMED_OUT_FOR_MS) {
    throw new OperationTimeout(`PDF render of ${path} page ${page + 1} (ran out of time lately)`, pdfWorker.timeLimitMs);
  }
  let result: PdfResult;
  try {
    result = await pdfWorker.call({
      op: 'render',
      path,
      version,
      page,
      maxWidth: options.maxWidth,
      maxHeight: options.maxHeight,
      format: options.format,
    });
  } catch (error) {
    if (error instanceof OperationTimeout) {
      if (timedOut.size >= TIMED_OUT_MAX) timedOut.clear();
      timedOut.set(key, Date.now());
    }
    throw error;
  }
  if (!result || !('bytes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return Buffer.from(result.bytes);
}

/** One page (0-based) as a standalone one-page PDF. */
export async function extractPdfPage(path: string, version: string, page: number): Promise<Buffer> {
  const result = await pdfWorker.call({ op: 'extract', path, version, page });
  if (!result || !('bytes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return Buffer.from(result.bytes);
}

/** Lets the worker close its handle on a file (the book was closed or changed). */
export function closePdf(path: string): void {
  // Only bother a worker that exists; closing must not start mupdf.
  if (pdfWorker.isRunning()) void pdfWorker.call({ op: 'close', path }).catch(() => undefined);
}
