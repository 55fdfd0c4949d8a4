import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';

export interface FrameDifference {
  /** Mean absolute difference per channel (R, G, B), 0–255. */
  meanPerChannel: [number, number, number];
  /** 99th percentile and largest absolute difference over every channel of every pixel. */
  p99: number;
  max: number;
  /** Share of channel values more than 8 levels apart. */
  over8: number;
  pixels: number;
}

export interface FirstFrameQuality {
  /** The document's image as the browser drew it against the reader's canvas. */
  imageVsCanvas: FrameDifference;
  /** Each against the page resized by sharp (Lanczos 3) to the same device pixels: the reference. */
  imageVsReference: FrameDifference;
  canvasVsReference: FrameDifference;
  /** The same three at CSS pixels (each 2×2 block of device pixels averaged): what a reader's eye resolves at best. */
  cssPixels: { imageVsCanvas: FrameDifference; imageVsReference: FrameDifference; canvasVsReference: FrameDifference };
}

function difference(a: Buffer, b: Buffer): FrameDifference {
  if (a.length !== b.length) throw new Error(`the frames differ in size (${a.length} against ${b.length} bytes)`);
  const sums = [0, 0, 0];
  const histogram = new Array<number>(256).fill(0);
  for (let index = 0; index < a.length; index++) {
    const delta = Math.abs(a[index]! - b[index]!);
    sums[index % 3]! += delta;
    histogram[delta]!++;
  }
  const pixels = a.length / 3;
  let seen = 0;
  let p99 = 0;
  for (let level = 0; level < 256; level++) {
    seen += histogram[level]!;
    if (seen >= a.length * 0.99) {
      p99 = level;
      break;
    }
  }
  const max = histogram.findLastIndex((count) => count > 0);
  const over8 = histogram.slice(9).reduce((sum, count) => sum + count, 0) / a.length;
  return { meanPerChannel: sums.map((sum) => sum / pixels) as [number, number, number], p99, max, over8, pixels };
}

/** Raw RGB of a PNG (`width` × `height`), or its average over each `factor`×`factor` block. */
async function rgb(png: Buffer, width: number, height: number, factor = 1): Promise<Buffer> {
  const raw = await sharp(png).removeAlpha().raw().toBuffer();
  if (raw.length !== width * height * 3) throw new Error(`a frame is not ${width}×${height}`);
  if (factor === 1) return raw;
  const [w, h] = [Math.floor(width / factor), Math.floor(height / factor)];
  const out = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let channel = 0; channel < 3; channel++) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy++) {
          for (let dx = 0; dx < factor; dx++) sum += raw[((y * factor + dy) * width + x * factor + dx) * 3 + channel]!;
        }
        out[(y * w + x) * 3 + channel] = Math.round(sum / (factor * factor));
      }
    }
  }
  return out;
}

/**
 * How a cold load's first frame drawn by the browser from the document's image (src/ui/reader/openingImage.ts:
 * its own scaled decode and filtering) compares with the reader's final-quality canvas that replaces it
 * (ImageDecoder at a DCT scale + an exact high-quality resize), pixel by pixel at the drawn size, and how
 * each compares with a reference resize of the page's own pixels. `page` is a cold load whose main
 * bundle is held until `release`; a band across the middle of the page is compared (clear of the
 * reader's toolbar), on whole CSS pixels. `original` is the page's file; `dpr` the device pixel ratio.
 */
export async function firstFrameQuality(page: Page, release: () => void, pageNumber: number, original: Buffer, dpr: number): Promise<FirstFrameQuality> {
  await page.waitForSelector(`[data-testid="reader-opening-image"][data-painted-page="${pageNumber}"]`, { timeout: 60_000 });
  // The image's box: where the reader's canvas draws the page too, on whole device pixels.
  const box = await page.locator('#folio-opening-page').evaluate((image: HTMLImageElement) => {
    const rect = image.getBoundingClientRect();
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  });
  const clip = {
    x: Math.ceil(box.x) + 1,
    y: Math.ceil(box.y + box.height / 4),
    width: Math.floor(box.width) - 4,
    height: Math.floor(box.height / 2),
  };
  const before = await page.screenshot({ clip });
  release();
  await page.waitForSelector(`[data-testid="reader-canvas"][data-painted-page="${pageNumber}"]`, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="reader-opening-image"]'), undefined, { timeout: 60_000 });
  const after = await page.screenshot({ clip });
  // The reference: the whole page resized to its drawn device size, then the same band cut out.
  const drawn = { width: Math.round(box.width * dpr), height: Math.round(box.height * dpr) };
  const band = { left: Math.round((clip.x - box.x) * dpr), top: Math.round((clip.y - box.y) * dpr), width: clip.width * dpr, height: clip.height * dpr };
  const reference = await sharp(original).resize(drawn.width, drawn.height, { kernel: 'lanczos3', fit: 'fill' }).extract(band).png().toBuffer();
  // BENCH_FRAME_DIR=<dir>: the three bands kept as PNGs, to look at.
  const keep = process.env.BENCH_FRAME_DIR;
  if (keep) {
    await Promise.all([
      writeFile(join(keep, 'first-frame-image.png'), before),
      writeFile(join(keep, 'first-frame-canvas.png'), after),
      writeFile(join(keep, 'first-frame-reference.png'), reference),
    ]);
  }
  const [w, h] = [band.width, band.height];
  const at = async (factor: number) => {
    const [image, canvas, ideal] = await Promise.all([before, after, reference].map((png) => rgb(png, w, h, factor)));
    return { imageVsCanvas: difference(image!, canvas!), imageVsReference: difference(image!, ideal!), canvasVsReference: difference(canvas!, ideal!) };
  };
  const device = await at(1);
  return { ...device, cssPixels: await at(dpr) };
}
