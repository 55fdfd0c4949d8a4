import type { CheckedFile } from './checked-file.ts';

/**
 * Messages between the PDF client (main thread) and pdf-render-worker.ts, plus sizing rules both
 * share. A book is named by its checked descriptor (checked-file.ts), never by a path to open.
 */

export type PdfRequest =
  | { id: number; op: 'describe'; file: CheckedFile; version: string }
  | {
      id: number;
      op: 'render';
      file: CheckedFile;
      version: string;
      /** 0-based page index. */
      page: number;
      maxWidth: number | undefined;
      maxHeight: number | undefined;
      format: 'jpeg' | 'png';
    }
  | { id: number; op: 'extract'; file: CheckedFile; version: string; page: number }
  | { id: number; op: 'close'; file: CheckedFile };

export type PdfResult = { sizes: [width: number, height: number][] } | { bytes: ArrayBuffer } | null;

export type PdfResponse = (
  | { id: number; result: PdfResult; error?: undefined }
  | { id: number; error: { code: string; message: string }; result?: undefined }
) & {
  /** mupdf's wasm heap grew past the worker's bound: the worker is to be ended (serial-worker.ts). */
  recycle?: boolean;
};

/** Bytes of wasm heap a PDF worker may keep after a call (the build lets it grow to 2 GiB). */
export const PDF_MAX_KEPT_HEAP_BYTES = 512 * 1024 * 1024;

/** Pages are drawn at 150 DPI by default (PDF sizes are in points, 72 per inch)... */
export const DEFAULT_DPI = 150;
/** ...but never larger than this on the longest side, so a poster-sized page stays a sane image. */
export const DEFAULT_MAX_EDGE = 2000;
/** Bounds on requested sizes: nothing below a thumbnail, nothing that would exhaust memory. */
export const MIN_EDGE = 16;
export const MAX_EDGE = 6000;

/**
 * Scale from points to pixels. Without a hint: DEFAULT_DPI, capped at DEFAULT_MAX_EDGE. With a
 * width and/or height hint: the largest scale that fits inside the hint (clamped to MIN/MAX_EDGE).
 */
export function renderScale(widthPt: number, heightPt: number, maxWidth?: number, maxHeight?: number): number {
  const w = Math.max(widthPt, 1);
  const h = Math.max(heightPt, 1);
  const clamp = (n: number) => Math.min(MAX_EDGE, Math.max(MIN_EDGE, Math.round(n)));
  if (maxWidth === undefined && maxHeight === undefined) {
    return Math.min(DEFAULT_DPI / 72, DEFAULT_MAX_EDGE / Math.max(w, h));
  }
  const byWidth = maxWidth === undefined ? Number.POSITIVE_INFINITY : clamp(maxWidth) / w;
  const byHeight = maxHeight === undefined ? Number.POSITIVE_INFINITY : clamp(maxHeight) / h;
  return Math.min(byWidth, byHeight, MAX_EDGE / Math.max(w, h));
}

/** Pixel size of a page drawn at `scale`, as mupdf rounds it (whole pixels covering the page). */
export function pixelSize(widthPt: number, heightPt: number, scale: number): [number, number] {
  return [Math.max(1, Math.ceil(widthPt * scale - 0.001)), Math.max(1, Math.ceil(heightPt * scale - 0.001))];
}
