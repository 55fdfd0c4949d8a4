import sharp from 'sharp';
import { barcodeRegions, detectionSide, greyFromPixels, greyImage } from './barcode-scan.ts';
import { decodeImage, decoder } from './image-decode.ts';
import type { DrawnThumbnail } from './image-transcode.ts';
import type { MediaWork } from './work-callers.ts';

/** A page's poster, and whether the page shows anything bar-like where an EAN-13 could be. */
export interface PosterAndBarcodeLook {
  thumbnail: DrawnThumbnail;
  /** False when the barcode search's small decode would find no barcode-like region (see barcode-scan.ts). */
  mayHoldBarcode: boolean;
}

/**
 * The poster of a page (as thumbnailJpeg draws it: upright, at most `edge` px long, JPEG at
 * `quality`) and the first step of the barcode search on the same page, from one decode: the page is
 * decoded once at the larger of the two sizes (a quarter-scale JPEG decode for a 1,800 px page and a
 * 300 px poster), and both the poster and the small grey image are drawn from those pixels. A book's
 * first page is both its poster and one of the pages searched for an ISBN barcode, and its decode
 * is most of the cost of either. Within the decode limits of image-decode.ts.
 */
export async function posterAndBarcodeLook(
  input: Buffer,
  size: { width: number; height: number },
  edge: number,
  quality: number,
  work: MediaWork = {},
): Promise<PosterAndBarcodeLook> {
  const detect = detectionSide(size.width, size.height);
  const side = Math.max(edge, detect);
  const { data, info } = await decodeImage(() =>
    decoder(input)
      .rotate()
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true }),
    work,
  );
  const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const poster = await decodeImage(() =>
    pixels().resize(edge, edge, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality }).toBuffer({ resolveWithObject: true }),
    work,
  );
  // At the default poster size the decode is already at the detection size (the larger of the two):
  // its grey comes from the same pixels without a third pipeline. A larger poster is shrunk first.
  const grey =
    Math.max(info.width, info.height) <= detect
      ? greyFromPixels(data, info.width, info.height, info.channels)
      : await greyImage(pixels().resize({ width: detect, height: detect, fit: 'inside', withoutEnlargement: true, kernel: 'linear' }));
  return {
    thumbnail: { data: poster.data, width: poster.info.width, height: poster.info.height },
    mayHoldBarcode: barcodeRegions(grey).length > 0,
  };
}
