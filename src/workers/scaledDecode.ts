/// <reference lib="webworker" />
import type { Box } from './decode-protocol.ts';

/**
 * Decoding a page straight to the size it is drawn at. A 4000×6000 JPEG drawn at 1067×1600 does not
 * need its 24 million pixels: JPEG can be decoded at 1/2, 1/4 or 1/8 of its size for a fraction of
 * the work (the DCT is scaled). WebCodecs' ImageDecoder exposes that through desiredWidth and
 * desiredHeight, but Chromium then picks the largest scale whose result is no larger than asked,
 * which may be smaller than the page is drawn. So the size asked for is the page's natural size
 * divided by the largest power of two that still leaves it at least as large as the drawing, and a
 * high-quality resize then makes the size exact. createImageBitmap with resize options decodes every
 * pixel first; this replaces it for JPEG where ImageDecoder exists. Other formats (WebP, PNG, AVIF)
 * have no scaled decoding and keep createImageBitmap.
 */

/** Formats whose decoders scale in the DCT. */
const SCALABLE = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg']);

/** The natural size shrunk by the largest power of two (at most 8) that keeps it ≥ `size`. */
export function scaledDecodeSize(natural: Box, size: Box): Box {
  let factor = 1;
  while (factor < 8 && natural.width / (factor * 2) >= size.width && natural.height / (factor * 2) >= size.height) factor *= 2;
  return { width: Math.ceil(natural.width / factor), height: Math.ceil(natural.height / factor) };
}

export interface Decoded {
  bitmap: ImageBitmap;
}

/**
 * Whether `a` and `b` have the same shape (aspect ratio), allowing the pixel of rounding a resize
 * makes on either side. A decode asked at a size of another shape than the image would stretch it.
 */
export function sameShape(a: Box, b: Box): boolean {
  const heightAtWidth = (b.height * a.width) / b.width;
  return Math.abs(a.height - heightAtWidth) <= 1 + (a.width / b.width) + a.height * 0.01;
}

/** Whether this browser can decode `type` through ImageDecoder (false where there is none). */
export async function canScaleDecode(type: string): Promise<boolean> {
  if (typeof ImageDecoder === 'undefined' || !type.startsWith('image/')) return false;
  let known = supported.get(type);
  if (known === undefined) {
    known = ImageDecoder.isTypeSupported(type).catch((error: unknown) => {
      console.warn(`ImageDecoder.isTypeSupported(${type}) failed; using createImageBitmap`, error);
      return false;
    });
    supported.set(type, known);
  }
  return known;
}

const supported = new Map<string, Promise<boolean>>();

/** Draws `source` at exactly `size` with high-quality smoothing, off the main thread. */
export function resizeExactly(source: CanvasImageSource & { width?: number }, size: Box): ImageBitmap {
  const canvas = new OffscreenCanvas(size.width, size.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('OffscreenCanvas 2D is not available');
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, size.width, size.height);
  return canvas.transferToImageBitmap();
}

/**
 * The first frame of `blob` decoded at no less than `size`, then resized to exactly `size`; null
 * when this path does not apply (no ImageDecoder, not a JPEG, natural size unknown, no reduced
 * scale small enough to help, an oriented or
 * rotated frame, or a frame decoded smaller than the drawing, or of another shape, because the natural
 * size given was wrong), so the caller uses createImageBitmap instead.
 */
export async function scaledDecode(blob: Blob, size: Box, natural: Box | undefined): Promise<Decoded | null> {
  return scaledDecodeOf(() => blob.stream(), blob.type, size, natural);
}

/**
 * The same decode on bytes as they arrive (`data` is called once, only when the path applies): the
 * decoder works through the part received while the rest is still on its way, so a page's decode
 * ends shortly after its last byte instead of a whole decode later.
 */
export async function scaledDecodeOf(data: () => ReadableStream<Uint8Array>, type: string, size: Box, natural: Box | undefined): Promise<Decoded | null> {
  if (!natural || !SCALABLE.has(type) || !(await canScaleDecode(type))) return null;
  const desired = scaledDecodeSize(natural, size);
  // Drawn at more than half its size: no smaller scale fits, and createImageBitmap does the same work.
  if (desired.width === natural.width && desired.height === natural.height) return null;
  const decoder = new ImageDecoder({
    data: data(),
    type,
    desiredWidth: desired.width,
    desiredHeight: desired.height,
    preferAnimation: false,
  });
  // Closing the decoder once the first frame is out rejects `completed` when the stream had not been
  // read to its end; Firefox reports that rejection as unhandled ("AbortError: Closed decoder").
  decoder.completed.catch((error: unknown) => {
    if (!(error instanceof DOMException && error.name === 'AbortError')) console.warn(`ImageDecoder of a ${type} page failed`, error);
  });
  try {
    const { image } = await decoder.decode({ frameIndex: 0 });
    try {
      const turned = image as VideoFrame & { rotation?: number; flip?: boolean };
      // EXIF orientation arrives as frame rotation/flip; createImageBitmap applies it, this path would not.
      if (turned.rotation || turned.flip) return null;
      if (image.displayWidth + 1 < size.width || image.displayHeight + 1 < size.height) return null;
      // A natural size of the wrong shape (a listed size that is not the image's): createImageBitmap
      // then measures the real shape instead of this path stretching the frame to the size asked.
      if (!sameShape({ width: image.displayWidth, height: image.displayHeight }, size)) return null;
      if (image.displayWidth === size.width && image.displayHeight === size.height) {
        return { bitmap: await createImageBitmap(image) };
      }
      return { bitmap: resizeExactly(image, size) };
    } finally {
      image.close();
    }
  } finally {
    decoder.close();
  }
}
