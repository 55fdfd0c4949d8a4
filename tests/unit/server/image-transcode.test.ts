// server/media/image-transcode.ts on images rendered here: thumbnails (page and book posters) keep
// their bounds, are turned upright and never enlarged; a page over the decode limits is refused.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DecodeRefused } from '../../../server/media/image-decode.ts';
import { thumbnailJpeg } from '../../../server/media/image-transcode.ts';
import { RED, lyingPng, renderPage } from '../../fixtures/index.ts';

describe('thumbnailJpeg', () => {
  it('fits the longest side to the edge, as a JPEG, and says its size', async () => {
    const page = await renderPage({ width: 600, height: 900, color: RED, format: 'png' });
    const drawn = await thumbnailJpeg(page, 300, 85);
    expect({ width: drawn.width, height: drawn.height }).toEqual({ width: 200, height: 300 });
    expect(await sharp(drawn.data).metadata()).toMatchObject({ format: 'jpeg', width: 200, height: 300 });
  });

  it('never enlarges a small image', async () => {
    const drawn = await thumbnailJpeg(await renderPage({ width: 40, height: 30, color: RED, format: 'jpeg' }), 300, 80);
    expect({ width: drawn.width, height: drawn.height }).toEqual({ width: 40, height: 30 });
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    // Stored 400 × 100 with orientation 6 (rotate 90° clockwise to view): upright it is 100 × 400.
    const sideways = await sharp(await renderPage({ width: 400, height: 100, color: RED, format: 'jpeg' }))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const drawn = await thumbnailJpeg(sideways, 200, 85);
    expect({ width: drawn.width, height: drawn.height }).toEqual({ width: 50, height: 200 });
  });

  it('refuses an image that cannot be decoded with DecodeRefused', async () => {
    await expect(thumbnailJpeg(lyingPng(), 300, 85)).rejects.toBeInstanceOf(DecodeRefused);
    await expect(thumbnailJpeg(Buffer.from('no image here'), 300, 85)).rejects.toBeInstanceOf(DecodeRefused);
  });
});
