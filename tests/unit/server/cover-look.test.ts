// server/media/cover-look.ts: one decode of a book's first page gives its poster, drawn as
// thumbnailJpeg draws it, and the barcode search's first look at the page.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { posterAndBarcodeLook } from '../../../server/media/cover-look.ts';
import { DecodeRefused, imageDecoding } from '../../../server/media/image-decode.ts';
import { greyFromPixels, greyImage } from '../../../server/media/barcode-scan.ts';
import { thumbnailJpeg } from '../../../server/media/image-transcode.ts';
import { RED, lyingPng, renderPage } from '../../fixtures/index.ts';
import { barcodePage } from '../../fixtures/ean13.ts';

async function meanColour(jpeg: Buffer): Promise<number[]> {
  return (await sharp(jpeg).stats()).channels.map((c) => Math.round(c.mean));
}

describe('posterAndBarcodeLook', () => {
  it('draws the poster thumbnailJpeg draws: same size, same colours, upright, never enlarged, from CMYK and 16-bit pages too', async () => {
    const sideways = await sharp(await renderPage({ width: 400, height: 100, color: RED, format: 'jpeg' })).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const withAlpha = await sharp({ create: { width: 600, height: 900, channels: 4, background: { r: 20, g: 120, b: 220, alpha: 0.5 } } }).png().toBuffer();
    const cmyk = await sharp({ create: { width: 600, height: 900, channels: 3, background: { r: 200, g: 40, b: 90 } } }).toColourspace('cmyk').jpeg().toBuffer();
    const deep = await sharp({ create: { width: 600, height: 900, channels: 3, background: { r: 30, g: 140, b: 200 } } }).toColourspace('rgb16').png().toBuffer();
    const cases: [Buffer, { width: number; height: number }, number][] = [
      [cmyk, { width: 600, height: 900 }, 300],
      [deep, { width: 600, height: 900 }, 300],
      [await renderPage({ width: 1200, height: 1800, color: RED, format: 'jpeg' }), { width: 1200, height: 1800 }, 300],
      [await renderPage({ width: 1200, height: 1800, color: RED, format: 'jpeg' }), { width: 1200, height: 1800 }, 600],
      [sideways, { width: 400, height: 100 }, 200],
      [withAlpha, { width: 600, height: 900 }, 300],
      [await renderPage({ width: 40, height: 30, color: RED, format: 'png' }), { width: 40, height: 30 }, 300],
    ];
    for (const [page, size, edge] of cases) {
      const alone = await thumbnailJpeg(page, edge, 85);
      const { thumbnail } = await posterAndBarcodeLook(page, size, edge, 85);
      expect({ width: thumbnail.width, height: thumbnail.height }).toEqual({ width: alone.width, height: alone.height });
      expect(await sharp(thumbnail.data).metadata()).toMatchObject({ format: 'jpeg', width: alone.width, height: alone.height });
      const [drawn, expected] = [await meanColour(thumbnail.data), await meanColour(alone.data)];
      drawn.forEach((value, i) => expect(Math.abs(value - expected[i]!)).toBeLessThanOrEqual(2));
    }
  });

  it('says whether the page may hold a barcode', async () => {
    const page = await barcodePage('9781402894626', 1200, 1800);
    expect((await posterAndBarcodeLook(page, { width: 1200, height: 1800 }, 300, 85)).mayHoldBarcode).toBe(true);
    const plain = await renderPage({ width: 1200, height: 1800, color: RED, format: 'jpeg' });
    expect((await posterAndBarcodeLook(plain, { width: 1200, height: 1800 }, 300, 85)).mayHoldBarcode).toBe(false);
  });

  it('takes two decode slots at the default poster size, not three: the grey look comes from the decoded pixels', async () => {
    const page = await barcodePage('9781402894626', 1200, 1800);
    const before = imageDecoding.started;
    const look = await posterAndBarcodeLook(page, { width: 1200, height: 1800 }, 300, 85);
    expect(imageDecoding.started - before).toBe(2);
    expect(look.mayHoldBarcode).toBe(true);
  });

  it('draws the same grey as libvips from grey, grey + alpha, colour and colour + alpha pixels (within one level)', async () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
    for (const channels of [1, 2, 3, 4] as const) {
      const [width, height] = [97, 61];
      const data = Buffer.from(Array.from({ length: width * height * channels }, random));
      // Some fully opaque and fully transparent pixels too, beside the random alpha.
      if (channels === 2 || channels === 4) for (let at = channels - 1; at < data.length; at += channels * 7) data[at] = at % 2 ? 255 : 0;
      const expected = await greyImage(sharp(data, { raw: { width, height, channels } }));
      const drawn = greyFromPixels(data, width, height, channels);
      expect({ width: drawn.width, height: drawn.height }).toEqual({ width: expected.width, height: expected.height });
      let worst = 0;
      for (let i = 0; i < drawn.data.length; i++) worst = Math.max(worst, Math.abs(drawn.data[i]! - expected.data[i]!));
      expect(worst, `${channels} channel(s)`).toBeLessThanOrEqual(1);
    }
  });

  it('refuses an image that cannot be decoded with DecodeRefused', async () => {
    await expect(posterAndBarcodeLook(lyingPng(), { width: 100, height: 100 }, 300, 85)).rejects.toBeInstanceOf(DecodeRefused);
    await expect(posterAndBarcodeLook(Buffer.from('no image here'), { width: 100, height: 100 }, 300, 85)).rejects.toBeInstanceOf(DecodeRefused);
  });
});
