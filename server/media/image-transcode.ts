import type { Readable } from 'node:stream';
import { ByteBudget } from './byte-budget.ts';
import { declaredRaster, decodeImage, decoder, withDecodeInput } from './image-decode.ts';
import type { MediaWork } from './work-callers.ts';

/** Formats a page can be converted to on request (`?convert=`). */
export type ConvertFormat = 'jpeg' | 'png';

/*
 * Every image drawn here is turned upright first (`.rotate()` reads the EXIF orientation): the
 * output carries no EXIF, so a page left sideways would stay sideways in the browser, and it must
 * match the size the page list reports (image-probe.ts: the page as shown).
 */

/** A converted page and the bytes it holds in the conversions' budget: `release` once it has been sent (or the client left). */
export interface ConvertedImage {
  bytes: Buffer;
  release(): void;
}

/**
 * The bytes that converted pages hold between their decode and the end of their response, shared by
 * every conversion. A page re-encoded as PNG is about as large as its decoded pixels (164 MB for a
 * 7,900² photographic page), and sharp gives its output in one piece even as a stream, so it cannot
 * be streamed out as it is written: it is counted here instead, and past the budget a conversion
 * waits for a slow client to take its page (then 503, Retry-After). 256 MiB, as the archive pool's
 * budget of pages read whole, holds one page of the largest kind decoded plus ordinary ones.
 */
export const conversionBytes = new ByteBudget(256 * 1024 * 1024);

/**
 * A page image re-encoded as JPEG (quality 90) or PNG, upright. Within the decode limits of
 * image-decode.ts: a page over them is refused with ERR_1007. Counted in conversionBytes from the
 * end of reading the page until `release`: its encoded input and, until it is written, the most
 * its output can take (its raw pixels), then what the output does take.
 *
 * Huffman tables optimised for the image (sharp's default) need every DCT coefficient kept until the
 * last row is read, about 6 bytes a pixel: a 62-megapixel page held 410 MiB more than the decode
 * itself, beyond the bound image-decode.ts keeps. A page over OPTIMISED_TABLES_MAX_PIXELS is written
 * with the standard tables, which stream the rows through (~20 MiB, half the time, a file 5 to 20 %
 * larger); ordinary pages keep the smaller files. Thumbnails and previews are small: always optimised.
 */
export function convertImage(stream: Readable, declaredSize: number | null, format: ConvertFormat, work: MediaWork = {}): Promise<ConvertedImage> {
  return withDecodeInput(stream, declaredSize, work, (input) => convertBytes(input, format, work));
}

async function convertBytes(input: Buffer, format: ConvertFormat, work: MediaWork): Promise<ConvertedImage> {
  // The header alone (no pixel decoded) says how large the output can be, and whether the
  // coefficient buffer of optimised tables would be; a page over the pixel limit is refused here.
  const raster = await declaredRaster(input);
  // Waiting here holds no image worker: others' thumbnails go on while slow clients are served.
  const held = await conversionBytes.reserve(input.length + raster.bytes, 'converted pages');
  try {
    const bytes = await decodeImage(async () => {
      if (format === 'png') return decoder(input).rotate().png().toBuffer();
      const optimiseCoding = raster.width * raster.height <= OPTIMISED_TABLES_MAX_PIXELS;
      return decoder(input).rotate().jpeg({ quality: 90, optimiseCoding }).toBuffer();
    }, work);
    held.settle(bytes.length);
    return { bytes, release: () => held.release() };
  } catch (error) {
    held.release();
    throw error;
  }
}

/** Pages up to this many pixels (a 2,400 × 3,300 scan) get optimised JPEG tables: at most ~48 MiB of coefficients. */
const OPTIMISED_TABLES_MAX_PIXELS = 8_000_000;

/** A JPEG preview, upright, at most `edge` pixels on its longest side (never enlarged), within the decode limits. */
export function previewJpeg(stream: Readable, declaredSize: number | null, edge: number, work: MediaWork = {}): Promise<Buffer> {
  return withDecodeInput(stream, declaredSize, work, (input) => decodeImage(() => decoder(input).rotate().resize(edge, edge, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer(), work));
}

/** A drawn thumbnail and its size in pixels. */
export interface DrawnThumbnail {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Page and book posters: the image turned upright (EXIF orientation), at most `edge` pixels on its
 * longest side (never enlarged), as JPEG at `quality`. Within the decode limits of image-decode.ts;
 * `work` says whom for (a request's decode goes first).
 */
export async function thumbnailJpeg(input: Buffer, edge: number, quality: number, work: MediaWork = {}): Promise<DrawnThumbnail> {
  const { data, info } = await decodeImage(() =>
    decoder(input)
      .rotate()
      .resize(edge, edge, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality })
      .toBuffer({ resolveWithObject: true }),
    work,
  );
  return { data, width: info.width, height: info.height };
}
