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
 */
export async function convertImage(stream: Readable, declaredSize: number | null, format: ConvertFormat): Promise<Buffer> {
  const input = await readForDecode(stream, declaredSize);
  return decodeImage(() => (format === 'jpeg' ? decoder(input).rotate().jpeg({ quality: 90 }).toBuffer() : decoder(input).rotate().png().toBuffer()));
}

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
