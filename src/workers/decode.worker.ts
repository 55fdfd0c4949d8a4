/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import type { Box, DecodeWorkerApi, WorkerDecodeOutcome, WorkerDecodeRequest } from './decode-protocol.ts';
import { resizeExactly, scaledDecode } from './scaledDecode.ts';
import { WARM_UP_NATURAL, WARM_UP_SIZE, warmUpImage } from './warmUpImage.ts';

/**
 * Fetches a page and decodes it into an ImageBitmap at the size it will be drawn, off the main
 * thread. The bitmap is transferred (not copied) back. Failures come back as values rather than
 * exceptions so the pool can tell "cancelled" from "HTTP 404" from "not an image".
 */

const controllers = new Map<number, AbortController>();

function aborted(): WorkerDecodeOutcome {
  return { ok: false, reason: 'aborted', message: 'Decode cancelled' };
}

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
 * resize happens here, still off the main thread, so callers always get the size they asked for.
 */
function ensureSize(bitmap: ImageBitmap, size: Box): ImageBitmap {
  if (bitmap.width === size.width && bitmap.height === size.height) return bitmap;
  const resized = resizeExactly(bitmap, size);
  bitmap.close();
  return resized;
}

async function decodeBlob(blob: Blob, request: WorkerDecodeRequest): Promise<WorkerDecodeOutcome & { ok: true }> {
  if (request.size) {
    // Pages of known size (nearly all: the server measured them) take the scaled decode when it applies.
    const scaled = request.method === 'bitmap' ? null : await scaledDecode(blob, request.size, request.natural);
    if (scaled) return { ok: true, bitmap: scaled.bitmap, naturalWidth: null, naturalHeight: null };
    const bitmap = await createImageBitmap(blob, {
      resizeWidth: request.size.width,
      resizeHeight: request.size.height,
      resizeQuality: 'high',
    });
    return { ok: true, bitmap: ensureSize(bitmap, request.size), naturalWidth: null, naturalHeight: null };
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

const api: DecodeWorkerApi = {
  async decode(id, request) {
    const controller = new AbortController();
    controllers.set(id, controller);
    try {
      const blob = request.blob ?? (await fetchBytes(request, controller));
      if (!(blob instanceof Blob)) return blob;
      if (controller.signal.aborted) return aborted();
      let outcome: WorkerDecodeOutcome & { ok: true };
      try {
        outcome = await decodeBlob(blob, request);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        return { ok: false, reason: 'decode', message: `${request.url} is not a decodable image: ${detail}` };
      }
      // Decoding cannot be interrupted; if nobody wants the result any more, free it here.
      if (controller.signal.aborted) {
        outcome.bitmap.close();
        return aborted();
      }
      return Comlink.transfer(outcome, [outcome.bitmap]);
    } finally {
      controllers.delete(id);
    }
  },

  cancel(id) {
    controllers.get(id)?.abort();
  },
};

/** The page's bytes, or the failure to report instead. */
async function fetchBytes(request: WorkerDecodeRequest, controller: AbortController): Promise<Blob | WorkerDecodeOutcome> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      credentials: 'include',
      headers: request.headers,
      signal: controller.signal,
    });
  } catch (error) {
    if (controller.signal.aborted) return aborted();
    return { ok: false, reason: 'network', message: `Could not fetch ${request.url}: ${String(error)}` };
  }
  if (!response.ok) {
    return {
      ok: false,
      reason: 'http',
      status: response.status,
      message: `Fetching ${request.url} failed with HTTP ${response.status}`,
    };
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (error) {
    if (controller.signal.aborted) return aborted();
    return { ok: false, reason: 'network', message: `Could not read ${request.url}: ${String(error)}` };
  }
  return blob;
}

Comlink.expose(api);

// Set the decoder up now, while the worker waits for its first page (see warmUpImage.ts). Pages
// asked meanwhile do not wait for it.
decodeBlob(warmUpImage(), { url: 'warm-up', size: WARM_UP_SIZE, natural: WARM_UP_NATURAL }).then(
  (outcome) => outcome.bitmap.close(),
  (error: unknown) => console.warn('The decode worker could not warm up its decoder', error),
);
