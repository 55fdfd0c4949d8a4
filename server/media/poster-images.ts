import sharp, { type Metadata } from 'sharp';
import { decodeImage, decoder } from './image-decode.ts';
import type { MediaWork } from './work-callers.ts';

/*
 * The image work behind posters: reading what an uploaded or sidecar image is, and drawing the 2×2
 * mosaic of collections and read lists. The domain decides which image is a poster and when one is
 * drawn; how bytes become an image is here.
 */

/** What a poster image is, read from its header (nothing decoded). */
export interface PosterImageHeader {
  /** sharp's name of the format, also the extension an uploaded poster is stored under. */
  format: string;
  mediaType: string;
  width: number;
  height: number;
}

/** sharp finds no image header it can read in the bytes or file. */
export class UnreadableImage extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableImage';
  }
}

/** Image formats a poster may be stored as, by sharp's format name. */
const POSTER_FORMATS: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  heif: 'image/heif',
};

/**
 * The header of an image given as bytes or as a file path: UnreadableImage when it is not an
 * image sharp can read (or the file cannot be read), null when it is one but in a format posters
 * are not kept in, or without dimensions. Only the header is parsed, no pixel is decoded.
 */
export async function readPosterImageHeader(input: Buffer | string): Promise<PosterImageHeader | null> {
  let meta: Metadata;
  try {
    meta = await sharp(input).metadata();
  } catch (error) {
    throw new UnreadableImage(`not a readable image: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const mediaType = POSTER_FORMATS[meta.format ?? ''];
  if (!mediaType || !meta.width || !meta.height) return null;
  // The size as shown (EXIF orientation applied), as browsers and the mosaic below draw it.
  const shown = meta.autoOrient;
  return { format: meta.format!, mediaType, width: shown.width, height: shown.height };
}

const TILE_W = 150;
const TILE_H = 225;

/**
 * A 2×2 JPEG poster made from up to four images (files or bytes), the first four given, in order
 * left to right then top to bottom. Missing tiles stay dark; each image is turned upright (EXIF
 * orientation: an uploaded photo) and cropped to fill its tile.
 * A tile may be a user's upload or a sidecar image from the library, so each is decoded within the
 * limits of image-decode.ts (pixels, time, decodes at once): DecodeRefused when one is over them.
 */
export async function renderMosaic(images: readonly (string | Buffer)[], work: MediaWork = {}): Promise<Buffer> {
  const tiles = await Promise.all(
    images.slice(0, 4).map((image) => decodeImage(() => decoder(image).rotate().resize(TILE_W, TILE_H, { fit: 'cover' }).jpeg().toBuffer(), work)),
  );
  return sharp({ create: { width: TILE_W * 2, height: TILE_H * 2, channels: 3, background: { r: 32, g: 32, b: 32 } } })
    .composite(tiles.map((input, i) => ({ input, left: (i % 2) * TILE_W, top: Math.floor(i / 2) * TILE_H })))
    .jpeg({ quality: 85 })
    .toBuffer();
}
