import type { Box, WorkerDecodeOutcome, WorkerDecodeRequest } from './decode-protocol.ts';
import { resizeExactly, sameShape, scaledDecode } from './scaledDecode.ts';

function fit(natural: Box, box: Box): Box | null {
  const factor = Math.min(box.width / natural.width, box.height / natural.height);
  if (factor >= 1) return null;
  return {
    width: Math.max(1, Math.round(natural.width * factor)),
    height: Math.max(1, Math.round(natural.height * factor)),
  };
}

/**
 * Some browsers ignore createImageBitmap's resize options and hand back the natural size; then the
 * resize happens here, so callers always get the size they asked for.
 */
function ensureSize(bitmap: ImageBitmap, size: Box): ImageBitmap {
  if (bitmap.width === size.width && bitmap.height === size.height) return bitmap;
  const resized = resizeExactly(bitmap, size);
  bitmap.close();
  return resized;
}

/**
 * A page decoded in another shape than the size asked (its listed size is wrong): kept in its own
 * shape, fitted in the size asked, and its real size reported (the listed size turned a quarter when
 * that is its shape, else the listed width at the real shape) so the view lays it out anew; the
 * painter (CanvasPainter keepShape) draws it unsquashed meanwhile.
 */
function wrongShape(bitmap: ImageBitmap, size: Box, natural: Box | undefined): WorkerDecodeOutcome & { ok: true } {
  const shape = { width: bitmap.width, height: bitmap.height };
  const factor = Math.min(size.width / shape.width, size.height / shape.height);
  const fitted = ensureSize(bitmap, { width: Math.max(1, Math.round(shape.width * factor)), height: Math.max(1, Math.round(shape.height * factor)) });
  const turned = natural && { width: natural.height, height: natural.width };
  // Without a listed size there is nothing to correct (and the decoded width is not the image's).
  const real = turned && sameShape(shape, turned) ? turned : natural ? { width: natural.width, height: Math.max(1, Math.round((natural.width * shape.height) / shape.width)) } : null;
  return { ok: true, bitmap: fitted, naturalWidth: real?.width ?? null, naturalHeight: real?.height ?? null };
}

/**
 * A page's bytes decoded into an ImageBitmap at the size asked: what a decode worker does with a job
 * (decode.worker.ts), and, on a cold load before any worker is up, what the pool does on the main
 * thread with the opening page (DecodePool decodeAhead). Throws when the bytes are no image.
 */
export async function decodeBlob(blob: Blob, request: WorkerDecodeRequest): Promise<WorkerDecodeOutcome & { ok: true }> {
  if (request.size) {
    // Pages of known size (nearly all: the server measured them) take the scaled decode when it applies.
    const scaled = request.method === 'bitmap' ? null : await scaledDecode(blob, request.size, request.natural);
    if (scaled) return { ok: true, bitmap: scaled.bitmap, naturalWidth: null, naturalHeight: null };
    // Only the width is given: the browser keeps the image's own shape, as shown (EXIF orientation
    // applied). Asked at both, it would stretch a page whose listed size has another shape (a photo
    // stored sideways, analysed before orientation counted) to the shape asked: a squashed page.
    const bitmap = await createImageBitmap(blob, { resizeWidth: request.size.width, resizeQuality: 'high' });
    if (sameShape(bitmap, request.size)) {
      // The browser derives the height itself and may round it the other way (Chromium rounds up:
      // 907 where the fitted size says 906); a pixel is not worth a second full-size resize, which
      // the painter's drawImage into the page's slot makes up for anyway.
      const close = Math.abs(bitmap.width - request.size.width) <= 1 && Math.abs(bitmap.height - request.size.height) <= 1;
      return { ok: true, bitmap: close ? bitmap : ensureSize(bitmap, request.size), naturalWidth: null, naturalHeight: null };
    }
    return wrongShape(bitmap, request.size, request.natural);
  }
  const natural = await createImageBitmap(blob);
  const naturalSize = { width: natural.width, height: natural.height };
  const target = request.fitWithin ? fit(naturalSize, request.fitWithin) : null;
  if (!target) return { ok: true, bitmap: natural, naturalWidth: natural.width, naturalHeight: natural.height };
  const resized = ensureSize(
    await createImageBitmap(natural, {
      resizeWidth: target.width,
      resizeHeight: target.height,
      resizeQuality: 'high',
    }),
    target,
  );
  natural.close();
  return { ok: true, bitmap: resized, naturalWidth: naturalSize.width, naturalHeight: naturalSize.height };
}
