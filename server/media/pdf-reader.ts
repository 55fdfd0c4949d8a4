import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  type BookReader,
  type DescribedBook,
  MediaError,
  type OpenedBook,
  type PageRenderRequest,
} from './book-reader.ts';
import { type CheckedFile, describeChecked, openForReading, releaseChecked } from './checked-file.ts';
import { listWithinBounds } from './analysis-bounds.ts';
import { descriptorIdentity } from './file-identity.ts';
import { pixelSize, renderScale } from './pdf-protocol.ts';
import type { MediaWork } from './work-callers.ts';
import { closePdf, describePdf, extractPdfPage, renderPdfPage } from './pdf-renderer.ts';

/** Media type of PDF pages as listed: they are drawn to JPEG unless PNG is asked for. */
export const PDF_PAGE_MEDIA_TYPE = 'image/jpeg';

/**
 * PDF books through mupdf, which runs in a worker thread (pdf-renderer.ts). A PDF has no image
 * entries: its pages are named "1", "2", … and drawn on request. Listed page sizes are those of
 * the default rendering (150 DPI, longest side at most 2000 px) so a client laying pages out from
 * the page list gets images of exactly that size. The worker reads the book through the descriptor
 * its signature was read from (openFile; for a library's book the one checked to lie inside the
 * library), held open until the book is closed: it never opens the book again by path.
 */
export const pdfReader: BookReader = {
  mediaType: 'application/pdf',
  mediaProfile: 'PDF',
  extensions: ['pdf'],
  // "%PDF-" at the very start; leading junk, which some viewers tolerate, is not accepted.
  matchesSignature: (head) => head.length >= 5 && head.subarray(0, 5).toString('latin1') === '%PDF-',
  open: async (filePath) => openPdfFile(await openForReading(filePath), filePath),
  openFile: (file, filePath) => openPdfFile(file, filePath),
};

/** Takes the descriptor over: it is closed with the book, or at once when the book cannot be opened. */
async function openPdfFile(file: FileHandle, filePath: string): Promise<OpenedBook> {
  try {
    const { checked, size, mtimeMs } = await describeChecked(file, filePath);
    return new OpenedPdf(checked, `${size}:${Math.floor(mtimeMs)}`, () => releaseChecked(file, filePath));
  } catch (error) {
    releaseChecked(file, filePath);
    throw error;
  }
}

function pageIndex(fileName: string): number {
  const n = Number(fileName);
  if (!Number.isInteger(n) || n < 1) throw new MediaError('ERR_1033', `no such PDF page: ${fileName}`);
  return n - 1;
}

class OpenedPdf implements OpenedBook {
  private readonly file: CheckedFile;
  private readonly version: string;
  private readonly release: () => void;

  constructor(file: CheckedFile, version: string, release: () => void) {
    this.file = file;
    this.version = version;
    this.release = release;
  }

  entries() {
    return [];
  }

  /**
   * Analysis's listing of the pages. One that runs out of time is made again at once, and the book
   * is ERROR (ERR_1008) after listingBounds.timeOuts in a row: put off as a transient failure, a
   * hostile PDF was analysed again at every scan, each time holding a mupdf worker for the whole
   * time limit, and never ended ERROR.
   */
  async describe(withDimensions: boolean): Promise<DescribedBook> {
    const sizes = await listWithinBounds(`PDF book ${this.file.path}`, () => describePdf(this.file, this.version));
    return {
      pages: sizes.map(([w, h], i) => {
        const [width, height] = pixelSize(w, h, renderScale(w, h));
        return {
          fileName: String(i + 1),
          mediaType: PDF_PAGE_MEDIA_TYPE,
          width: withDimensions ? width : null,
          height: withDimensions ? height : null,
          fileSize: null,
        };
      }),
      files: [],
      failedEntries: [],
    };
  }

  renderPage(fileName: string, request: PageRenderRequest, work: MediaWork = {}): Promise<Buffer> {
    return renderPdfPage(this.file, this.version, pageIndex(fileName), request, work.caller);
  }

  async rawPage(fileName: string, work: MediaWork = {}): Promise<{ bytes: Buffer; mediaType: string }> {
    return { bytes: await extractPdfPage(this.file, this.version, pageIndex(fileName), work.caller), mediaType: 'application/pdf' };
  }

  /** The default rendering, for callers that only know entries (thumbnails, generic code). */
  async openEntry(name: string, work: MediaWork = {}): Promise<Readable> {
    return Readable.from([await this.renderPage(name, { format: 'jpeg' }, work)], { objectMode: false });
  }

  async readPrefix(name: string, maxBytes: number, work: MediaWork = {}): Promise<Buffer> {
    return (await this.renderPage(name, { format: 'jpeg' }, work)).subarray(0, maxBytes);
  }

  descriptorIdentity(): string {
    return descriptorIdentity(this.file.fd);
  }

  close(): void {
    closePdf(this.file);
    // The worker reads through a descriptor of its own (checked-file.ts), so this one may go now.
    this.release();
  }
}
