import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';
import { writeZip } from '../../tests/fixtures/comics.ts';

export type BenchFormat = 'jpeg' | 'webp' | 'png' | 'avif';

export interface BenchImage {
  width: number;
  height: number;
  format: BenchFormat;
  bytes: Buffer;
}

const EXTENSIONS: Record<BenchFormat, string> = { jpeg: 'jpg', webp: 'webp', png: 'png', avif: 'avif' };

/**
 * Scan-like pages: blurred noise compresses about as badly as a real high-resolution scan does
 * (a solid colour would make decoding look free). Generating one costs seconds, so a few distinct
 * images are made once, cached under bench/out/, and reused across the book's pages.
 */
export async function scanLikeImages(
  cacheDir: string,
  count: number,
  width: number,
  height: number,
  format: BenchFormat = 'jpeg',
): Promise<BenchImage[]> {
  await mkdir(cacheDir, { recursive: true });
  const images: BenchImage[] = [];
  for (let index = 0; index < count; index++) {
    const file = join(cacheDir, `scan-${width}x${height}-${index}.${EXTENSIONS[format]}`);
    let bytes: Buffer;
    try {
      await stat(file);
      bytes = await readFile(file);
    } catch {
      const noise = sharp({
        create: {
          width,
          height,
          channels: 3,
          background: { r: 0, g: 0, b: 0 },
          noise: { type: 'gaussian', mean: 110 + index * 20, sigma: 60 },
        },
      })
        .blur(1.2);
      // Typical settings for each format in the wild: q85 JPEG, q80 lossy WebP, default PNG, q60 AVIF.
      const encoded =
        format === 'jpeg'
          ? noise.jpeg({ quality: 85 })
          : format === 'webp'
            ? noise.webp({ quality: 80 })
            : format === 'avif'
              ? noise.avif({ quality: 60, effort: 2 })
              : noise.png();
      bytes = await encoded.toBuffer();
      await writeFile(file, bytes);
    }
    images.push({ width, height, format, bytes });
  }
  return images;
}

/**
 * Writes a CBZ whose page n is images[n % images.length]. The zip stores the same buffer again for
 * every page that reuses it, so a 1000-page book costs only the writing.
 */
export async function writeBook(path: string, images: BenchImage[], pageCount: number): Promise<void> {
  const zip = new yazl.ZipFile();
  for (let page = 0; page < pageCount; page++) {
    const image = images[page % images.length] as BenchImage;
    zip.addBuffer(image.bytes, `page-${String(page + 1).padStart(4, '0')}.${EXTENSIONS[image.format]}`, {
      compress: false,
      mtime: new Date(2020, 0, 1),
    });
  }
  await writeZip(zip, path);
}
