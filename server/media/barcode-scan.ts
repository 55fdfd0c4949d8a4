import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Sharp } from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { decodeImage, decoder } from './image-decode.ts';

/*
 * EAN-13 search on a page image, in two steps so that pages without a barcode (nearly all) cost one
 * small decode and a pass over its pixels, and ZXing only ever looks at small crops:
 *
 * 1. the page is decoded in grey at most DETECT_SIDE px long (a large JPEG decodes at a fraction of
 *    its scale, libvips shrink-on-load), and cut into CELL × CELL cells; a cell where the grey
 *    level changes a lot across one axis and little along the other looks like bars. Groups of such
 *    cells as wide as a barcode are the candidates; a page with none is done.
 * 2. each candidate (largest first), with its quiet zones, is cut from the page at full
 *    resolution (at most READ_SIDE px long), and ZXing reads that crop.
 */

/** Longest side of the grey decode used to find barcode-like regions (larger pages: less of their share). */
const DETECT_SIDE = 800;
/**
 * Pages are searched at a fifth of their size (up to DETECT_SIDE), so that libjpeg decodes a JPEG
 * at a quarter of its scale itself (DCT scaling): sharp asks libjpeg for a quarter only when the
 * shrink is 5 or more (a shrink of 4.x is loaded at half scale, for libjpeg's rounding), and a third
 * was a half-scale decode, 1.7× the CPU on the bench's 1,200×1,800 page (8.0 against 4.8 ms). The
 * bars of an EAN-13 printed at the smallest size GS1 allows (80 %, 0.26 mm modules, 15 % of a comic's
 * width: 1.9 px on a 1,200 px scan) are then 0.4 px each: too thin to see one by one, but a run of
 * cells whose grey level changes across one axis and not along the other still shows where they are
 * (the crop ZXing reads comes from the page at full resolution).
 */
const DETECT_SHARE = 1 / 5;
/** Pages under 1,800 px long are searched at this size (a fifth of them would lose the bars). */
const MIN_DETECT_SIDE = 360;
/** Longest side of a crop handed to ZXing (a barcode cut from a huge scan is shrunk to it). */
const READ_SIDE = 1500;
/** Cell side in pixels of the small decode: 4 px hold the 1–2 bars of ~8 modules the 0.4 px modules above give. */
const CELL = 4;
/** Mean grey change per pixel across the bars for a cell to count (0–255 scale). */
const MIN_EDGE = 12;
/** How much stronger the change across the bars must be than along them. */
const MIN_RATIO = 3;
/** A barcode is at least this many cells long across its bars (95 modules at ≥ ~0.34 px each)... */
const MIN_SPAN_CELLS = 8;
/** ...and this many cells tall along them. */
const MIN_DEPTH_CELLS = 2;
/** Share of a candidate's bounding box its bar-like cells must fill (bars, not scattered hatching). */
const MIN_FILL = 0.45;
/** At most this many regions per page are handed to ZXing. */
const MAX_CANDIDATES = 3;

/** A barcode-like region of the grey image, in its pixels; `across` is the axis the bars alternate on. */
export interface BarcodeRegion {
  left: number;
  top: number;
  width: number;
  height: number;
  across: 'x' | 'y';
}

export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

let ready: Promise<unknown> | undefined;

/**
 * The ZXing reader, compiled to WebAssembly, loaded once from the package's own .wasm file (the
 * package would otherwise fetch it from a CDN, and the server must work offline).
 */
function zxing(): Promise<unknown> {
  ready ??= (async () => {
    const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = await readFile(wasmPath);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  ready.catch(() => (ready = undefined));
  return ready;
}

/** A valid ISBN-13 (978/979 "Bookland" prefix, EAN check digit), or null. */
export function isbnFromEan(text: string): string | null {
  if (!/^97[89]\d{10}$/.test(text)) return null;
  const sum = [...text].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return sum % 10 === 0 ? text : null;
}

/**
 * The page in grey, at most `maxSide` px long, transparency over white (bounded by image-decode.ts).
 * Shrunk with a linear kernel: finding bar-like cells needs no sharper filter (same regions found on
 * 1.5–4 px modules), and it costs about a sixth less than lanczos3 on the three pages searched per book.
 */
export async function decodeGrey(image: Buffer, maxSide: number): Promise<GreyImage> {
  return greyImage(decoder(image).rotate().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true, kernel: 'linear' }));
}

/** The pipeline's output as one grey channel, transparency over white (one decode slot of image-decode.ts). */
export async function greyImage(pipeline: Sharp): Promise<GreyImage> {
  const { data, info } = await decodeImage(() =>
    pipeline.flatten({ background: '#ffffff' }).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true }),
  );
  if (info.channels !== 1) throw new Error(`grey decode gave ${info.channels} channels`);
  return { data, width: info.width, height: info.height };
}

/** sRGB level (0–255) to linear light, and linear light (in 4,096 steps) back to an sRGB level. */
const TO_LINEAR = Float32Array.from({ length: 256 }, (_, level) => {
  const c = level / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const LINEAR_STEPS = 4096;
const TO_SRGB = Uint8Array.from({ length: LINEAR_STEPS + 1 }, (_, step) => {
  const y = step / LINEAR_STEPS;
  return Math.round(255 * (y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055));
});

/**
 * Decoded 8-bit pixels (grey, grey + alpha, sRGB or sRGB + alpha, by `channels`) as greyImage
 * draws them: alpha over white on the stored levels (as sharp's flatten), then, for colour, the
 * luminance in linear light (Rec. 709 weights) brought back to sRGB levels, as libvips's b-w
 * conversion does (within one level). Used instead of another sharp pipeline when the pixels are
 * already at the detection size: a pipeline costs about a millisecond of fixed work on the worker
 * threads, more than this loop.
 */
export function greyFromPixels(data: Uint8Array, width: number, height: number, channels: number): GreyImage {
  const grey = new Uint8Array(width * height);
  const alphaAt = channels === 2 || channels === 4 ? channels - 1 : -1;
  if (channels === 3) {
    // The usual case (a JPEG page), kept to the bare loop: values are positive, so `+ 0.5 | 0` rounds.
    for (let i = 0, at = 0; i < grey.length; i++, at += 3) {
      const y = 0.2126 * TO_LINEAR[data[at]!]! + 0.7152 * TO_LINEAR[data[at + 1]!]! + 0.0722 * TO_LINEAR[data[at + 2]!]!;
      grey[i] = TO_SRGB[(y * LINEAR_STEPS + 0.5) | 0]!;
    }
    return { data: grey, width, height };
  }
  const colour = channels >= 3;
  for (let i = 0, at = 0; i < grey.length; i++, at += channels) {
    let r = data[at]!;
    let g = colour ? data[at + 1]! : 0;
    let b = colour ? data[at + 2]! : 0;
    if (alphaAt >= 0 && data[at + alphaAt]! < 255) {
      const a = data[at + alphaAt]! / 255;
      const white = 255 * (1 - a);
      r = Math.round(r * a + white);
      g = Math.round(g * a + white);
      b = Math.round(b * a + white);
    }
    grey[i] = colour ? TO_SRGB[((0.2126 * TO_LINEAR[r]! + 0.7152 * TO_LINEAR[g]! + 0.0722 * TO_LINEAR[b]!) * LINEAR_STEPS + 0.5) | 0]! : r;
  }
  return { data: grey, width, height };
}

/**
 * The regions of a grey image that look like a 1-D barcode (see the top of this file), largest
 * first, at most MAX_CANDIDATES. Empty for blank pages, photos, text and line art without long
 * runs of parallel bars.
 */
export function barcodeRegions(image: GreyImage): BarcodeRegion[] {
  const { data, width, height } = image;
  const cols = Math.floor(width / CELL);
  const rows = Math.floor(height / CELL);
  if (cols === 0 || rows === 0) return [];
  // Per cell: 1 = bars alternate along x (upright barcode), 2 = along y (turned a quarter).
  const kind = new Uint8Array(cols * rows);
  const threshold = MIN_EDGE * CELL * CELL;
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      let dx = 0;
      let dy = 0;
      for (let y = row * CELL, yEnd = y + CELL; y < yEnd; y++) {
        const line = y * width;
        const below = y + 1 < height ? line + width : line;
        for (let x = col * CELL, xEnd = x + CELL; x < xEnd; x++) {
          const here = data[line + x]!;
          dx += Math.abs((x + 1 < width ? data[line + x + 1]! : here) - here);
          dy += Math.abs(data[below + x]! - here);
        }
      }
      if (dx >= threshold && dx >= MIN_RATIO * dy) kind[row * cols + col] = 1;
      else if (dy >= threshold && dy >= MIN_RATIO * dx) kind[row * cols + col] = 2;
    }
  }
  const regions: (BarcodeRegion & { cells: number })[] = [];
  const seen = new Uint8Array(cols * rows);
  const stack: number[] = [];
  for (let start = 0; start < kind.length; start++) {
    const k = kind[start]!;
    if (k === 0 || seen[start]) continue;
    let [minCol, maxCol, minRow, maxRow, cells] = [cols, -1, rows, -1, 0];
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop()!;
      const col = at % cols;
      const row = (at - col) / cols;
      cells++;
      minCol = Math.min(minCol, col);
      maxCol = Math.max(maxCol, col);
      minRow = Math.min(minRow, row);
      maxRow = Math.max(maxRow, row);
      // Eight neighbours: thin spaces between bars may leave a cell out.
      for (let ny = Math.max(0, row - 1); ny <= Math.min(rows - 1, row + 1); ny++) {
        for (let nx = Math.max(0, col - 1); nx <= Math.min(cols - 1, col + 1); nx++) {
          const next = ny * cols + nx;
          if (!seen[next] && kind[next] === k) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    const spanX = maxCol - minCol + 1;
    const spanY = maxRow - minRow + 1;
    const [span, depth] = k === 1 ? [spanX, spanY] : [spanY, spanX];
    if (span < MIN_SPAN_CELLS || depth < MIN_DEPTH_CELLS || cells < MIN_FILL * spanX * spanY) continue;
    regions.push({ left: minCol * CELL, top: minRow * CELL, width: spanX * CELL, height: spanY * CELL, across: k === 1 ? 'x' : 'y', cells });
  }
  return regions
    .sort((a, b) => b.cells - a.cells)
    .slice(0, MAX_CANDIDATES)
    .map(({ cells: _cells, ...region }) => region);
}

/** The region grown by its quiet zones (about 11 modules each side across the bars) and a little along them. */
function withMargins(region: BarcodeRegion, width: number, height: number): BarcodeRegion {
  const across = region.across === 'x' ? region.width : region.height;
  const quiet = Math.ceil(across * 0.2) + CELL * 2;
  const along = CELL * 2;
  const [padX, padY] = region.across === 'x' ? [quiet, along] : [along, quiet];
  const left = Math.max(0, region.left - padX);
  const top = Math.max(0, region.top - padY);
  return {
    left,
    top,
    width: Math.min(width, region.left + region.width + padX) - left,
    height: Math.min(height, region.top + region.height + padY) - top,
    across: region.across,
  };
}

/** The ISBN among the EAN-13 codes ZXing reads in a grey image, or null. */
async function readRegion(image: GreyImage): Promise<string | null> {
  const { width, height } = image;
  // ZXing takes RGBA (and turns it back to grey): only the crop is converted.
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, to = 0; i < width * height; i++, to += 4) {
    const grey = image.data[i]!;
    rgba[to] = grey;
    rgba[to + 1] = grey;
    rgba[to + 2] = grey;
    rgba[to + 3] = 255;
  }
  await zxing();
  const pixels = { data: rgba, width, height, colorSpace: 'srgb' } as ImageData;
  const results = await readBarcodes(pixels, { formats: ['EAN13'], tryHarder: true, tryRotate: true, maxNumberOfSymbols: 2 });
  for (const result of results) {
    const isbn = result.isValid ? isbnFromEan(result.text) : null;
    if (isbn) return isbn;
  }
  return null;
}

/**
 * A region of the small decode, cut from the page at its full resolution (turned upright like the
 * small decode), in grey, shrunk to at most READ_SIDE px long when larger: a barcode keeps every
 * pixel the scan gave it, and ZXing still reads a bounded image.
 */
async function cutRegion(image: Buffer, region: BarcodeRegion, small: GreyImage): Promise<GreyImage> {
  const { width = small.width, height = small.height, orientation = 1 } = await decoder(image).metadata();
  // EXIF orientations 5–8 turn the page a quarter: the small decode's width is the stored height.
  const [fullWidth, fullHeight] = orientation >= 5 ? [height, width] : [width, height];
  const scale = fullWidth / small.width;
  const left = Math.min(fullWidth - 1, Math.floor(region.left * scale));
  const top = Math.min(fullHeight - 1, Math.floor(region.top * scale));
  const crop = {
    left,
    top,
    width: Math.max(1, Math.min(fullWidth - left, Math.ceil(region.width * scale))),
    height: Math.max(1, Math.min(fullHeight - top, Math.ceil(region.height * scale))),
  };
  return greyImage(decoder(image).rotate().extract(crop).resize({ width: READ_SIDE, height: READ_SIDE, fit: 'inside', withoutEnlargement: true }));
}

/**
 * The first ISBN found among the EAN-13 barcodes of an image, or null; `size` is the image's as
 * stored, when known. Throws DecodeRefused for an image over the decode limits, and the transient
 * errors of image-decode.ts.
 */
export async function findIsbnInImage(image: Buffer, size?: { width: number | null; height: number | null }): Promise<string | null> {
  // The page's size as analysis read it from the header, or read here (a header parse on libuv's pool).
  const { width = DETECT_SIDE, height = DETECT_SIDE } = size?.width && size.height ? (size as { width: number; height: number }) : await decoder(image).metadata();
  const small = await decodeGrey(image, detectionSide(width, height));
  for (const region of barcodeRegions(small)) {
    const withQuietZones = withMargins(region, small.width, small.height);
    // A page no larger than the small decode was decoded whole already.
    const crop = Math.max(small.width, small.height) >= Math.max(width, height) ? cropOf(small, withQuietZones) : await cutRegion(image, withQuietZones, small);
    const isbn = await readRegion(crop);
    if (isbn) return isbn;
  }
  return null;
}

/** Longest side of the detection decode of a `width`×`height` page (see DETECT_SHARE). */
export function detectionSide(width: number, height: number): number {
  return Math.min(DETECT_SIDE, Math.max(MIN_DETECT_SIDE, Math.floor(Math.max(width, height) * DETECT_SHARE)));
}

function cropOf(image: GreyImage, region: BarcodeRegion): GreyImage {
  const data = new Uint8Array(region.width * region.height);
  for (let y = 0; y < region.height; y++) {
    const from = (region.top + y) * image.width + region.left;
    data.set(image.data.subarray(from, from + region.width), y * region.width);
  }
  return { data, width: region.width, height: region.height };
}
