import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import yazl from 'yazl';
import { writeZip } from '../../tests/fixtures/comics.ts';

export interface GeneratedLibrary {
  root: string;
  books: string[];
  pageBytes: Buffer[];
}

/** A JPEG page: solid colour (tiny, for scan benchmarks) or noise (realistic size, for serving). */
export async function renderJpeg(width: number, height: number, seed: number, noise: boolean): Promise<Buffer> {
  if (!noise) {
    return sharp({ create: { width, height, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: 90 } } })
      .jpeg({ quality: 85 })
      .toBuffer();
  }
  const raw = Buffer.alloc(width * height * 3);
  let state = (Math.imul(seed, 2654435761) + 1) >>> 0;
  for (let i = 0; i < raw.length; i++) {
    // 32-bit LCG; Math.imul keeps it exact (a plain multiply overflows double precision).
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    raw[i] = (state >>> 16) & 0xff;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

/**
 * Writes `seriesCount × booksPerSeries` CBZ files of `pagesPerBook` stored JPEG entries. A few page
 * images are rendered once and reused, so generating thousands of books takes seconds.
 */
export async function generateLibrary(options: {
  root: string;
  seriesCount: number;
  booksPerSeries: number;
  pagesPerBook: number;
  pageWidth: number;
  pageHeight: number;
  noise: boolean;
}): Promise<GeneratedLibrary> {
  const variants = await Promise.all(
    Array.from({ length: 8 }, (_, i) => renderJpeg(options.pageWidth, options.pageHeight, i + 1, options.noise)),
  );
  const books: string[] = [];
  for (let s = 1; s <= options.seriesCount; s++) {
    const folder = join(options.root, `Series ${String(s).padStart(4, '0')}`);
    await mkdir(folder, { recursive: true });
    for (let b = 1; b <= options.booksPerSeries; b++) {
      const file = join(folder, `Series ${s} - ${String(b).padStart(3, '0')}.cbz`);
      const zip = new yazl.ZipFile();
      for (let p = 1; p <= options.pagesPerBook; p++) {
        const bytes = variants[(s + b + p) % variants.length]!;
        zip.addBuffer(bytes, `${String(p).padStart(3, '0')}.jpg`, { compress: false, mtime: new Date(2020, 0, 1) });
      }
      await writeZip(zip, file);
      books.push(file);
    }
  }
  return { root: options.root, books, pageBytes: variants };
}
