// server/media/poster-images.ts on real images rendered here: what an uploaded or sidecar image is
// (header only), and the 2×2 mosaic of collections and read lists, within the decode limits.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecodeRefused, MAX_DECODE_PIXELS } from '../../../server/media/image-decode.ts';
import { UnreadableImage, readPosterImageHeader, renderMosaic } from '../../../server/media/poster-images.ts';
import { BLUE, GREEN, RED, YELLOW, lyingPng, renderPage } from '../../fixtures/index.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-poster-images-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readPosterImageHeader', () => {
  it.each(['jpeg', 'png', 'webp'] as const)('reads a %s from bytes and from a file', async (format) => {
    const bytes = await renderPage({ width: 120, height: 180, color: RED, format });
    const expected = { format, mediaType: `image/${format}`, width: 120, height: 180 };
    expect(await readPosterImageHeader(bytes)).toEqual(expected);
    const file = join(dir, `cover.${format}`);
    await writeFile(file, bytes);
    expect(await readPosterImageHeader(file)).toEqual(expected);
  });

  it('takes GIF and AVIF (which sharp names heif)', async () => {
    const base = sharp({ create: { width: 16, height: 24, channels: 3, background: { r: 1, g: 2, b: 3 } } });
    expect(await readPosterImageHeader(await base.clone().gif().toBuffer())).toMatchObject({ mediaType: 'image/gif', width: 16, height: 24 });
    expect(await readPosterImageHeader(await base.clone().avif().toBuffer())).toMatchObject({ format: 'heif', mediaType: 'image/heif' });
  });

  it('gives null for an image in a format posters are not kept in', async () => {
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 9, b: 9 } } }).tiff().toBuffer();
    expect(await readPosterImageHeader(tiff)).toBeNull();
  });

  it('refuses what is not an image, and a missing file, with UnreadableImage', async () => {
    await expect(readPosterImageHeader(Buffer.from('not an image at all'))).rejects.toBeInstanceOf(UnreadableImage);
    await expect(readPosterImageHeader(join(dir, 'absent.jpg'))).rejects.toBeInstanceOf(UnreadableImage);
  });
});

/** The colour at the middle of a tile (column, row) of a mosaic. */
async function tileColour(mosaic: Buffer, column: number, row: number): Promise<number[]> {
  const { data } = await sharp(mosaic)
    .extract({ left: column * 150 + 70, top: row * 225 + 107, width: 10, height: 10 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [data[0]!, data[1]!, data[2]!];
}

const near = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]!) <= 12);

describe('renderMosaic', () => {
  it('lays out the first four images left to right, top to bottom, as a 300×450 JPEG', async () => {
    const file = join(dir, 'green.png');
    await writeFile(file, await renderPage({ width: 300, height: 300, color: GREEN, format: 'png' }));
    const images = [
      await renderPage({ width: 200, height: 300, color: RED, format: 'jpeg' }),
      file,
      await renderPage({ width: 50, height: 80, color: BLUE, format: 'webp' }),
      await renderPage({ width: 600, height: 900, color: YELLOW, format: 'jpeg' }),
      await renderPage({ width: 10, height: 10, color: [255, 255, 255], format: 'png' }),
    ];
    const mosaic = await renderMosaic(images);
    expect(await sharp(mosaic).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 450 });
    expect(near(await tileColour(mosaic, 0, 0), [255, 0, 0])).toBe(true);
    expect(near(await tileColour(mosaic, 1, 0), [0, 255, 0])).toBe(true);
    expect(near(await tileColour(mosaic, 0, 1), [0, 0, 255])).toBe(true);
    expect(near(await tileColour(mosaic, 1, 1), [255, 255, 0])).toBe(true);
  });

  it('leaves missing tiles dark', async () => {
    const mosaic = await renderMosaic([await renderPage({ width: 20, height: 30, color: RED, format: 'png' })]);
    expect(near(await tileColour(mosaic, 1, 0), [32, 32, 32])).toBe(true);
    expect(near(await tileColour(mosaic, 1, 1), [32, 32, 32])).toBe(true);
    const empty = await renderMosaic([]);
    expect(await sharp(empty).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 450 });
    expect(near(await tileColour(empty, 0, 0), [32, 32, 32])).toBe(true);
  });

  it('refuses to decode a tile over the pixel limit (DecodeRefused) instead of allocating it', async () => {
    // 8,200 × 8,200 = 67 MP: over MAX_DECODE_PIXELS, under sharp's own default limit.
    const side = 8200;
    expect(side * side).toBeGreaterThan(MAX_DECODE_PIXELS);
    const huge = await sharp({ create: { width: side, height: side, channels: 3, background: { r: 200, g: 10, b: 10 } } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await expect(renderMosaic([huge])).rejects.toBeInstanceOf(DecodeRefused);
    await expect(renderMosaic([lyingPng()])).rejects.toBeInstanceOf(DecodeRefused);
  });
});
