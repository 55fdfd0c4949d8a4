import sharp from 'sharp';

const TILE_W = 150;
const TILE_H = 225;

/**
 * A 2×2 poster made from up to four images (collection and read-list thumbnails). Missing tiles
 * stay dark; each image is cropped to fill its tile.
 */
export async function mosaic(images: (string | Buffer)[]): Promise<Buffer> {
  const tiles = await Promise.all(
    images.slice(0, 4).map((image) => sharp(image, { failOn: 'none' }).resize(TILE_W, TILE_H, { fit: 'cover' }).jpeg().toBuffer()),
  );
  return sharp({ create: { width: TILE_W * 2, height: TILE_H * 2, channels: 3, background: { r: 32, g: 32, b: 32 } } })
    .composite(tiles.map((input, i) => ({ input, left: (i % 2) * TILE_W, top: Math.floor(i / 2) * TILE_H })))
    .jpeg({ quality: 85 })
    .toBuffer();
}
