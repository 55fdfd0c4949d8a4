import type { Readable } from 'node:stream';
import sharp, { type Matrix3x3, type Sharp } from 'sharp';
import { MediaError } from './book-reader.ts';
import { decodeBitmap, isBitmap, readBitmapHeader } from './bmp-decode.ts';
import { DecodeRefused } from './decode-refused.ts';
import { ByteBudget, type ByteReservation } from './byte-budget.ts';
import { ServerBusy, OperationTimeout } from './transient-errors.ts';
import { type MediaWork, isRequestWork } from './work-callers.ts';

/*
 * Every decode of a page image on the server (thumbnails, posters, format conversion, previews,
 * barcode search) goes through here, so one hostile page cannot take the process's memory:
 *
 * - input: at most MAX_DECODE_INPUT_BYTES of encoded bytes, checked against the size the archive
 *   declares before anything is read, and again while reading (declared sizes can lie);
 * - pixels: sharp refuses images declaring more than MAX_DECODE_PIXELS (limitInputPixels), before
 *   allocating them;
 * - concurrency: at most IMAGE_WORKERS decodes run at once (each with SHARP_THREADS libvips
 *   threads); others wait, requests before background work, in queues of at most MAX_QUEUED each,
 *   then get "busy" (503; see decodeImage);
 * - waiting input: the encoded bytes of pages read for decoding, from before they are read until
 *   their decode ends, count against decodeInputBytes (see withDecodeInput), so a queue of
 *   decodes holds at most that much input, however large the pages;
 * - time: a decode running longer than DECODE_TIMEOUT_SECONDS is stopped by libvips; the domain
 *   remembers the page for a while (domain/pages/decode-input.ts) so that it is not decoded again.
 *
 * Memory bound of one request that decodes a page: MAX_DECODE_INPUT_BYTES of input plus the
 * decoded image, at most MAX_DECODE_PIXELS × 4 bytes (RGBA) — 64 MiB + 256 MiB = 320 MiB — and at
 * most IMAGE_WORKERS of them at once (≈ 640 MiB above the server's baseline). Pages over the
 * limits are still served as stored (plain page requests stream them); only decoding is refused.
 * Encoders must stream too: a whole page is written as JPEG with standard Huffman tables (see
 * convertImage), since optimised ones hold every coefficient (410 MiB at 62 Mpx). A converted page
 * is held whole once written (sharp's output comes in one piece; a PNG as large as the decoded image
 * for photographic noise) until its client has it: all of them within one byte budget
 * (conversionBytes in image-transcode.ts).
 */
export const MAX_DECODE_INPUT_BYTES = 64 * 1024 * 1024;
export const MAX_DECODE_PIXELS = 64_000_000;
export const DECODE_TIMEOUT_SECONDS = 30;
/** The decode time limit in force (tests lower it) and how many decodes started, for tests and load figures. */
export const imageDecoding = { timeoutSeconds: DECODE_TIMEOUT_SECONDS, started: 0 };
const IMAGE_WORKERS = 2;
const SHARP_THREADS = 1;
const MAX_QUEUED = 256;
const QUEUE_WAIT_MS = 30_000;

sharp.concurrency(SHARP_THREADS);
/*
 * No libvips operation cache. It keeps the last 100 operations in case the same one is asked again,
 * and a page decoded from bytes never is: each decode wraps its bytes in a new blob, which is part
 * of the operation's identity, so pages never hit it (only a poster file read twice from disk
 * could, and those are drawn once and then served as stored). Looking up, inserting and trimming
 * cost about 5 % of the CPU of a book's poster and barcode search (15.4 against 16.4 ms a book,
 * 19 of 20 alternating pairs lower, measured apart).
 */
sharp.cache(false);

export { DecodeRefused } from './decode-refused.ts';

/** Bytes already in memory (an entry read whole) refused for decoding past MAX_DECODE_INPUT_BYTES. */
export function checkDecodeInput(bytes: Buffer): Buffer {
  if (bytes.length > MAX_DECODE_INPUT_BYTES) throw new DecodeRefused(`page is ${bytes.length} bytes, over the ${MAX_DECODE_INPUT_BYTES}-byte decode limit`);
  return bytes;
}

/**
 * Encoded bytes of pages read for decoding and not decoded yet, shared by every decode that reads a
 * stream (page thumbnails, conversions, previews, posters, the barcode search). Each once held its
 * input while waiting for a worker, counted nowhere: 256 queued decodes of 24 MP scans (~5 MB a
 * page) held over a gigabyte, up to 256 × 64 MiB. 256 MiB keeps both workers busy on the largest
 * pages allowed with ordinary ones queued behind. Pages read whole from RAR/7z/ZIP into the
 * archive pool's buffers are counted in that pool's budget instead.
 */
export const decodeInputBytes = new ByteBudget(256 * 1024 * 1024);

/**
 * Reads `stream` for decoding (readForDecode's limits) and runs `use` on its bytes, which stay
 * counted in decodeInputBytes from before the read until `use` settles. The count is taken before
 * reading, so waiting holds no page in memory: the declared size, or MAX_DECODE_INPUT_BYTES when
 * none is declared, settled to the true size once read. A request waits up to the budget's waitMs,
 * then ServerBusy (503, Retry-After); background work (`work` without a request's caller) waits as
 * long as it takes, so a busy moment fails no task and marks no poster or page. `use` must not keep
 * the bytes after it settles. The stream is destroyed when refused.
 */
export async function withDecodeInput<T>(stream: Readable, declaredSize: number | null | undefined, work: MediaWork, use: (bytes: Buffer) => Promise<T>): Promise<T> {
  if (declaredSize != null && declaredSize > MAX_DECODE_INPUT_BYTES) {
    stream.destroy();
    throw new DecodeRefused(`page is ${declaredSize} bytes, over the ${MAX_DECODE_INPUT_BYTES}-byte decode limit`);
  }
  let held: ByteReservation;
  try {
    held = await decodeInputBytes.reserve(declaredSize ?? MAX_DECODE_INPUT_BYTES, 'pages waiting to be decoded', isRequestWork(work) ? undefined : Infinity);
  } catch (error) {
    stream.destroy();
    throw error;
  }
  try {
    const bytes = await readForDecode(stream, declaredSize);
    // A declared size may lie either way: what is held is what was read (at most the decode limit).
    held.settle(bytes.length);
    return await use(bytes);
  } finally {
    held.release();
  }
}

/**
 * An entry's bytes for decoding, refused (DecodeRefused) when the archive declares, or the stream
 * turns out to hold, more than MAX_DECODE_INPUT_BYTES. The stream is destroyed when refused.
 * Only through withDecodeInput, which counts the bytes.
 */
async function readForDecode(stream: Readable, declaredSize: number | null | undefined): Promise<Buffer> {
  if (declaredSize != null && declaredSize > MAX_DECODE_INPUT_BYTES) {
    stream.destroy();
    throw new DecodeRefused(`page is ${declaredSize} bytes, over the ${MAX_DECODE_INPUT_BYTES}-byte decode limit`);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > MAX_DECODE_INPUT_BYTES) {
      stream.destroy();
      throw new DecodeRefused(`page is over the ${MAX_DECODE_INPUT_BYTES}-byte decode limit`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, length);
}

/**
 * A sharp pipeline on encoded bytes (or an image file: posters already on disk) with the pixel and
 * time limits set.
 */
export function decoder(input: Buffer | string): Sharp {
  if (typeof input !== 'string' && isBitmap(input)) return bitmapDecoder(input);
  return sharp(input, { failOn: 'none', limitInputPixels: MAX_DECODE_PIXELS }).timeout({ seconds: imageDecoding.timeoutSeconds });
}

/** Swaps the first and third colour channels (blue-green-red to red-green-blue); alpha is left as it is. */
const SWAP_BLUE_RED: Matrix3x3 = [
  [0, 0, 1],
  [0, 1, 0],
  [1, 0, 0],
];

/**
 * sharp's libvips reads no BMP: a bitmap page is decoded here (bmp-decode.ts, within
 * MAX_DECODE_PIXELS, DecodeRefused otherwise) and handed over as raw pixels. Called inside a
 * decode's work (decodeImage), so its rows are copied while holding an image worker.
 */
function bitmapDecoder(input: Buffer): Sharp {
  const bitmap = decodeBitmap(input, MAX_DECODE_PIXELS);
  let image = sharp(bitmap.data, { raw: { width: bitmap.width, height: bitmap.height, channels: bitmap.channels }, limitInputPixels: MAX_DECODE_PIXELS }).timeout({ seconds: imageDecoding.timeoutSeconds });
  if (bitmap.padded) image = image.removeAlpha();
  if (bitmap.bgr) image = image.recomb(SWAP_BLUE_RED);
  return image;
}

/** What an image's header declares, no pixel decoded; `bytes`: its pixels uncompressed, the most an encoder's output of them takes. */
export interface DeclaredRaster {
  width: number;
  height: number;
  bytes: number;
}

/**
 * The size an encoded image declares (sharp reads its header only, on libuv's pool, no worker
 * taken). An undecodable header, or one over MAX_DECODE_PIXELS, is DecodeRefused, as its decode
 * would be.
 */
export async function declaredRaster(input: Buffer): Promise<DeclaredRaster> {
  if (isBitmap(input)) {
    // From its headers: decoding a bitmap (see decoder) is work for an image worker.
    const { width, height, bitsPerPixel } = readBitmapHeader(input);
    if (width < 1 || height < 1 || width * height > MAX_DECODE_PIXELS) throw new DecodeRefused(`bitmap declares ${width} × ${height} pixels, outside the decode limit`);
    return { width, height, bytes: width * height * (bitsPerPixel === 32 ? 4 : 3) + 64 * 1024 };
  }
  let metadata: Awaited<ReturnType<Sharp['metadata']>>;
  try {
    metadata = await decoder(input).metadata();
  } catch (error) {
    throw new DecodeRefused(`page cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { width, height } = metadata;
  if (!width || !height) throw new DecodeRefused('page cannot be decoded: no size in its header');
  if (width * height > MAX_DECODE_PIXELS) throw new DecodeRefused(`page declares ${width} × ${height} pixels, over the ${MAX_DECODE_PIXELS}-pixel decode limit`);
  const sampleBytes = metadata.depth === 'ushort' || metadata.depth === 'short' ? 2 : metadata.depth === 'float' || metadata.depth === 'uint' || metadata.depth === 'int' ? 4 : 1;
  // One filter byte a row and a little for headers and chunks, so a PNG of noise fits too.
  return { width, height, bytes: width * height * (metadata.channels ?? 4) * sampleBytes + height + 64 * 1024 };
}

let running = 0;
/**
 * Decodes waiting for a worker, one queue for requests (someone is waiting for the page) and one for
 * background work (posters, analysis, the barcode search). A freed worker takes the oldest request
 * first: in one queue, a reader's page thumbnail or conversion waited behind every background decode
 * queued before it, and was refused at once (503) when they filled the queue's places.
 * Background work takes a worker only when no request waits, so it cannot delay a request by more
 * than the decodes already running. Each queue has its own MAX_QUEUED slots; a request waits at most
 * QUEUE_WAIT_MS, background work as long as it takes (requests may pass it for as long as they
 * come; it fails no task and marks no page for that).
 */
const queues = { request: [] as (() => void)[], background: [] as (() => void)[] };

/** Decodes waiting for a worker, by kind (tests and load figures). */
export function waitingDecodes(): { request: number; background: number } {
  return { request: queues.request.length, background: queues.background.length };
}

/**
 * Runs one decode when a worker is free, requests before background work (`work`: who it is for,
 * see queues). sharp's own errors (undecodable data, too many pixels) become DecodeRefused; its
 * time limit becomes OperationTimeout (transient: the server was slow).
 */
export async function decodeImage<T>(run: () => Promise<T>, work: MediaWork = {}): Promise<T> {
  await takeWorker(isRequestWork(work) ? 'request' : 'background');
  imageDecoding.started++;
  try {
    return await run();
  } catch (error) {
    if (error instanceof MediaError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/timeout/i.test(message)) throw new OperationTimeout('image decode', imageDecoding.timeoutSeconds * 1000);
    throw new DecodeRefused(`page cannot be decoded: ${message}`);
  } finally {
    running--;
    (queues.request.shift() ?? queues.background.shift())?.();
  }
}

function takeWorker(kind: 'request' | 'background'): Promise<void> {
  if (running < IMAGE_WORKERS) {
    running++;
    return Promise.resolve();
  }
  const queue = queues[kind];
  if (queue.length >= MAX_QUEUED) return Promise.reject(new ServerBusy('too many images are being decoded at once'));
  return new Promise((resolve, reject) => {
    const start = () => {
      clearTimeout(timer);
      running++;
      resolve();
    };
    const timer =
      kind === 'background'
        ? undefined
        : setTimeout(() => {
            const at = queue.indexOf(start);
            if (at >= 0) queue.splice(at, 1);
            reject(new ServerBusy('too many images are being decoded at once'));
          }, QUEUE_WAIT_MS);
    queue.push(start);
  });
}
