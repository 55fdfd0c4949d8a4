import type { Readable } from 'node:stream';
import { decodeImage, decoder, readForDecode } from './image-decode.ts';

/** Formats a page can be converted to on request (`?convert=`). */
export type ConvertFormat = 'jpeg' | 'png';

/*
 * Every image drawn here is turned upright first (`.rotate()` reads the EXIF orientation): the
 * output carries no EXIF, so a page left sideways would stay sideways in the browser, and it must
 * match the size the page list reports (image-probe.ts: the page as shown).
 */

/**
 * A page image re-encoded as JPEG (quality 90) or PNG, upright. Within the decode limits of
 * image-decode.ts: a page over them is refused with ERR_1007.
 *
 * Huffman tables optimised for the image (sharp's default) need every DCT coefficient kept until the
 * last row is read, about 6 bytes a pixel: a 62-megapixel page held 410 MiB more than the decode
 * itself, beyond the bound image-decode.ts keeps. A page over OPTIMISED_TABLES_MAX_PIXELS is written
 * with the standard tables, which stream the rows through (~20 MiB, half the time, a file 5 to 20 %
 * larger); ordinary pages keep the smaller files. Thumbnails and previews are small: always optimised.
 */
export async function convertImage(stream: Readable, declaredSize: number | null, format: ConvertFormat): Promise<Buffer> {
  const input = await readForDecode(stream, declaredSize);
  return decodeImage(async () => {
    if (format === 'png') return decoder(input).rotate().png().toBuffer();
    // The header alone (no pixel decoded) says how large the coefficient buffer would be.
    const { width, height } = await decoder(input).metadata();
    const optimiseCoding = width !== undefined && height !== undefined && width * height <= OPTIMISED_TABLES_MAX_PIXELS;
    return decoder(input).rotate().jpeg({ quality: 90, optimiseCoding }).toBuffer();
  });
}

/** Pages up to this many pixels (a 2,400 × 3,300 scan) get optimised JPEG tables: at most ~48 MiB of coefficients. */
const OPTIMISED_TABLES_MAX_PIXELS = 8_000_000;

/** A JPEG preview, upright, at most `edge` pixels on its longest side (never enlarged), within the decode limits. */
export async function previewJpeg(stream: Readable, declaredSize: number | null, edge: number): Promise<Buffer> {
  const input = await readForDecode(stream, declaredSize);
  return decodeImage(() => decoder(input).rotate().resize(edge, edge, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer());
}

/** A drawn thumbnail and its size in pixels. */
export interface DrawnThumbnail {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Page and book posters: the image turned upright (EXIF orientation), at most `edge` pixels on its
 * longest side (never enlarged), as JPEG at `quality`. Within the decode limits of image-decode.ts.
 */
export async function thumbnailJpeg(input: Buffer, edge: number, quality: number): Promise<DrawnThumbnail> {
  const { data, info } = await decodeImage(() =>
    decoder(input)
      .rotate()
      .resize(edge, edge, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality })
      .toBuffer({ resolveWithObject: true }),
  );
  return { data, width: info.width, height: info.height };
}
