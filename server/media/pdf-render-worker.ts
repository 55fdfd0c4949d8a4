/**
 * Worker thread that owns mupdf (wasm, ~10 MB): the main thread never loads it, and page rendering,
 * which blocks for as long as drawing takes, never stalls request handling. Messages are
 * PdfRequest → PdfResponse (see pdf-protocol.ts); documents stay open in a small LRU so
 * rendering page after page does not re-parse the cross-reference table.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type * as Mupdf from 'mupdf';
import { PDF_MAX_KEPT_HEAP_BYTES, type PdfRequest, type PdfResponse, type PdfResult, renderScale } from './pdf-protocol.ts';
import { MAX_ARCHIVE_ENTRIES } from './book-reader.ts';
import { type CheckedFile, openCheckedInWorker } from './checked-file.ts';

type MupdfModule = typeof Mupdf;
/**
 * The emscripten module mupdf's wasm is instantiated into (mupdf.js hands the factory this global):
 * it gets HEAPU8, which tells how far the heap has grown. A wasm heap never shrinks, and one page
 * (a 6000 px drawing, a huge image) can grow it to the build's 2 GiB: past maxKeptHeapBytes after a
 * call, the worker asks to be ended (recycle) rather than keep that memory for as long as it lives.
 */
const wasmModule: { HEAPU8?: Uint8Array } = {};
(globalThis as Record<string, unknown>).$libmupdf_wasm_Module = wasmModule;
const maxKeptHeapBytes = Number((workerData as { maxKeptHeapBytes?: number } | undefined)?.maxKeptHeapBytes ?? PDF_MAX_KEPT_HEAP_BYTES);
let mupdfLoading: Promise<MupdfModule> | undefined;
const loadMupdf = () =>
  (mupdfLoading ??= import('mupdf').then((mupdf) => {
    // Repair notices for damaged files would flood the server log; failures surface as errors anyway.
    mupdf.setLog(null);
    return mupdf;
  }));

interface OpenDocument {
  doc: Mupdf.Document;
  fd: number;
}
const MAX_OPEN = 4;
const documents = new Map<string, OpenDocument>();

class PdfFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** Cached documents are the file's (device and inode), whatever path led to it. */
const fileKey = (file: CheckedFile) => `${file.dev}:${file.ino}\u0000`;

/**
 * Opens through positioned reads (mupdf's Stream handle) rather than loading the file: only the
 * objects a page needs are read from disk. The file is reached through the descriptor the main
 * thread checked (checked-file.ts), never by its path.
 */
async function openDocument(file: CheckedFile, version: string): Promise<Mupdf.Document> {
  const key = `${fileKey(file)}${version}`;
  const cached = documents.get(key);
  if (cached) {
    documents.delete(key);
    documents.set(key, cached);
    return cached.doc;
  }
  const mupdf = await loadMupdf();
  let fd: number;
  try {
    fd = openCheckedInWorker(file);
  } catch (error) {
    throw new PdfFailure('ERR_1000', `cannot read file: ${String(error)}`);
  }
  const size = fstatSync(fd).size;
  let doc: Mupdf.Document;
  try {
    const stream = new mupdf.Stream({
      fileSize: () => size,
      read: (memory, offset, length, position) => readSync(fd, memory, offset, length, position),
      close: () => undefined,
    });
    doc = mupdf.Document.openDocument(stream, 'application/pdf');
  } catch (error) {
    closeSync(fd);
    throw new PdfFailure('ERR_1008', `cannot open PDF: ${String(error)}`);
  }
  if (doc.needsPassword()) {
    doc.destroy();
    closeSync(fd);
    throw new PdfFailure('ERR_1008', 'password-protected PDF documents are not supported');
  }
  documents.set(key, { doc, fd });
  while (documents.size > MAX_OPEN) {
    const [oldestKey, oldest] = documents.entries().next().value as [string, OpenDocument];
    documents.delete(oldestKey);
    oldest.doc.destroy();
    closeSync(oldest.fd);
  }
  return doc;
}

function forget(file: CheckedFile): void {
  for (const [key, open] of documents) {
    if (key.startsWith(fileKey(file))) {
      documents.delete(key);
      open.doc.destroy();
      closeSync(open.fd);
    }
  }
}

async function handle(request: PdfRequest): Promise<{ result: PdfResult; transfer: ArrayBuffer[] }> {
  const mupdf = await loadMupdf();
  if (request.op === 'close') {
    forget(request.file);
    return { result: null, transfer: [] };
  }
  const doc = await openDocument(request.file, request.version);
  if (request.op === 'describe') {
    const count = doc.countPages();
    // As for archive entries: a listing of a million pages (a 100 MB file of one-line pages) would
    // keep this worker busy for minutes and put a million rows in the database; no book has that.
    if (count > MAX_ARCHIVE_ENTRIES) throw new PdfFailure('ERR_1008', `PDF has ${count} pages, more than the ${MAX_ARCHIVE_ENTRIES} allowed`);
    const sizes: [number, number][] = [];
    for (let i = 0; i < count; i++) {
      const page = doc.loadPage(i);
      try {
        const [x0, y0, x1, y1] = page.getBounds();
        sizes.push([x1 - x0, y1 - y0]);
      } finally {
        page.destroy();
      }
    }
    return { result: { sizes }, transfer: [] };
  }
  const count = doc.countPages();
  if (!Number.isInteger(request.page) || request.page < 0 || request.page >= count) {
    throw new PdfFailure('ERR_1033', `page ${request.page + 1} does not exist`);
  }
  if (request.op === 'render') {
    const page = doc.loadPage(request.page);
    try {
      const [x0, y0, x1, y1] = page.getBounds();
      const scale = renderScale(x1 - x0, y1 - y0, request.maxWidth, request.maxHeight);
      const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
      try {
        const encoded = request.format === 'png' ? pixmap.asPNG() : pixmap.asJPEG(90);
        // Copy out of the wasm heap: the heap itself must never be transferred.
        const bytes = new Uint8Array(encoded).buffer as ArrayBuffer;
        return { result: { bytes }, transfer: [bytes] };
      } finally {
        pixmap.destroy();
      }
    } finally {
      page.destroy();
    }
  }
  // One-page PDF: the page object and everything it references, grafted into a new document.
  const pdf = doc.asPDF();
  if (!pdf) throw new PdfFailure('ERR_1001', 'not a PDF document');
  const single = new mupdf.PDFDocument();
  try {
    single.graftPage(0, pdf, request.page);
    const buffer = single.saveToBuffer('compress,garbage');
    const bytes = new Uint8Array(buffer.asUint8Array()).buffer as ArrayBuffer;
    buffer.destroy();
    return { result: { bytes }, transfer: [bytes] };
  } finally {
    single.destroy();
  }
}

// Requests are handled one at a time, in order: mupdf is single-threaded and so is this worker.
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (request: PdfRequest) => {
  queue = queue.then(async () => {
    let response: PdfResponse;
    let transfer: ArrayBuffer[] = [];
    try {
      const done = await handle(request);
      response = { id: request.id, result: done.result };
      transfer = done.transfer;
    } catch (error) {
      const code = error instanceof PdfFailure ? error.code : 'ERR_1008';
      response = { id: request.id, error: { code, message: error instanceof Error ? error.message : String(error) } };
    }
    if ((wasmModule.HEAPU8?.buffer.byteLength ?? 0) > maxKeptHeapBytes) {
      // Closed here rather than left to the thread's end (Node closes what fs opened in a worker
      // then, as pdf-worker-shares.test.ts checks): mupdf's documents go with their descriptors.
      for (const open of documents.values()) {
        open.doc.destroy();
        closeSync(open.fd);
      }
      documents.clear();
      response.recycle = true;
    }
    parentPort?.postMessage(response, transfer);
  });
});
