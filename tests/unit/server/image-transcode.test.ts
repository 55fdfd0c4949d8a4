// server/media/image-transcode.ts on images rendered here: thumbnails (page and book posters) keep
// their bounds, are turned upright and never enlarged; a page over the decode limits is refused.
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DecodeRefused } from '../../../server/media/image-decode.ts';
import { convertImage, thumbnailJpeg } from '../../../server/media/image-transcode.ts';
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

/** This process's peak resident memory in MiB since the last reset (Linux: /proc/self/status). */
const peakMiB = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
/** Starts a new peak from the current resident size (writing 5 to clear_refs resets VmHWM). */
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');

describe('convertImage', () => {
  it('converts a page of 36 million pixels to JPEG holding little more than its rows, not every coefficient at once', async () => {
    // A large page as a scan at 600 DPI is: 6,000 × 6,000, one colour (1.2 MB as PNG, 36 Mpx decoded).
    const page = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: { r: 200, g: 180, b: 90 } } }).png().toBuffer();
    resetPeak();
    const before = peakMiB();
    const { bytes: jpeg, release } = await convertImage(Readable.from([page]), page.length, 'jpeg');
    release();
    const grown = peakMiB() - before;
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 6000, height: 6000 });
    // Huffman tables optimised for the image need every DCT coefficient kept until the end: about
    // 215 MiB here (410 MiB at 62 Mpx) on top of the decode. Written with the standard tables, the
    // encoder streams the rows through: about 20 MiB.
    expect(grown).toBeLessThan(100);
  });

  it('keeps optimised tables (smaller files) for an ordinary page', async () => {
    const page = await renderPage({ width: 1200, height: 1800, color: RED, bands: [RED, [20, 20, 200], [240, 240, 240]], format: 'png' });
    const { bytes: jpeg, release } = await convertImage(Readable.from([page]), page.length, 'jpeg');
    release();
    expect(jpeg.length).toBe((await sharp(page).jpeg({ quality: 90 }).toBuffer()).length);
  });
});
