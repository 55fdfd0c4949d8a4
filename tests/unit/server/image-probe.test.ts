import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { probeImage, sniffImageType } from '../../../server/media/image-probe.ts';
import { renderPage } from '../../fixtures/index.ts';

/** Inserts `count` APP1 segments of ~64 KiB right after the JPEG SOI marker (like huge EXIF/XMP blocks). */
function withBigAppSegments(jpeg: Buffer, count: number): Buffer {
  const segments = Array.from({ length: count }, () => {
    const payload = Buffer.alloc(65_000, 0x41);
    const header = Buffer.from([0xff, 0xe1, 0, 0]);
    header.writeUInt16BE(payload.length + 2, 2);
    return Buffer.concat([header, payload]);
  });
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

describe('image header probing', () => {
  it.each(['jpeg', 'png', 'webp'] as const)('reads %s dimensions from the header', async (format) => {
    const bytes = await renderPage({ width: 321, height: 123, color: [1, 2, 3], format });
    const probe = await probeImage(bytes.subarray(0, 4096));
    expect(probe).toMatchObject({ mediaType: `image/${format}`, width: 321, height: 123 });
  });

  it('asks for more bytes when a JPEG frame header sits behind large metadata, then finds it', async () => {
    const jpeg = withBigAppSegments(await renderPage({ width: 640, height: 480, color: [9, 9, 9], format: 'jpeg' }), 3);
    expect((await sharp(jpeg).metadata()).width).toBe(640); // still a valid JPEG
    const short = await probeImage(jpeg.subarray(0, 64 * 1024));
    expect(short.mediaType).toBe('image/jpeg');
    expect(short.width).toBeNull();
    expect(short.needBytes).toBeGreaterThan(64 * 1024);
    const full = await probeImage(jpeg.subarray(0, short.needBytes));
    expect(full).toMatchObject({ width: 640, height: 480 });
  });

  it('does not take text or XML for an image', async () => {
    expect(sniffImageType(Buffer.from('<?xml version="1.0"?><ComicInfo/>'))).toBeNull();
    expect((await probeImage(Buffer.from('hello world'))).mediaType).toBeNull();
  });

  it('takes an AVIF by the brands of its file type box, not by the major brand alone', async () => {
    const avif = await sharp({ create: { width: 30, height: 40, channels: 3, background: 'red' } }).avif().toBuffer();
    // Writers of the HEIF family may put the generic "mif1" first and "avif" among the compatible brands.
    const generic = Buffer.from(avif);
    generic.write('mif1', 8, 'latin1');
    expect(sniffImageType(avif)).toBe('image/avif');
    expect(sniffImageType(generic)).toBe('image/avif');
    // A HEIC photo (HEVC) stays HEIF, whether its major brand says heic or mif1 with heic compatible.
    const heic = Buffer.from(avif);
    heic.write('heic', 8, 'latin1');
    heic.write('heic', 20, 'latin1');
    expect(sniffImageType(heic)).toBe('image/heif');
    heic.write('mif1', 8, 'latin1');
    expect(sniffImageType(heic)).toBe('image/heif');
  });

  it('takes a BMP by its file and info headers, not by its first two letters', async () => {
    // Text that starts with "BM" (a scan group's credits) is not a bitmap, whatever its length.
    for (const text of ['BMX Bandits scans: thanks for reading! Find us at example.org.', 'BM scans\n']) {
      expect((await probeImage(Buffer.from(text))).mediaType, text).toBeNull();
    }
    const bitmap = (infoSize: number) => {
      const bytes = Buffer.alloc(14 + infoSize + 30 * 40 * 3);
      bytes.write('BM', 0, 'latin1');
      bytes.writeUInt32LE(bytes.length, 2);
      bytes.writeUInt32LE(14 + infoSize, 10);
      bytes.writeUInt32LE(infoSize, 14);
      if (infoSize === 12) {
        // OS/2 and Windows 2 core header: 16-bit sizes.
        bytes.writeUInt16LE(30, 18);
        bytes.writeUInt16LE(40, 20);
      } else {
        bytes.writeInt32LE(30, 18);
        bytes.writeInt32LE(-40, 22); // top-down rows
      }
      return bytes;
    };
    for (const infoSize of [12, 40, 108, 124]) {
      expect(await probeImage(bitmap(infoSize)), `info header of ${infoSize} bytes`).toMatchObject({ mediaType: 'image/bmp', width: 30, height: 40 });
    }
  });
});

describe('lying image headers', () => {
  it('flags a PNG whose header declares absurd dimensions, and one without an IHDR chunk', async () => {
    // 148 bytes that start like a PNG and "declare" 1634886241 × 1734698849 pixels.
    const liar = Buffer.alloc(148, 0x61);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(liar);
    liar.write('IHDR', 12, 'latin1');
    liar.writeUInt32BE(1634886241, 16);
    liar.writeUInt32BE(1734698849, 20);
    expect(await probeImage(liar)).toMatchObject({ mediaType: 'image/png', width: null, height: null, bad: expect.stringContaining('implausible') });
    const noIhdr = Buffer.from(liar);
    noIhdr.write('abcd', 12, 'latin1');
    expect((await probeImage(noIhdr)).bad).toBeDefined();
  });

  it('flags a JPEG whose markers are not a JPEG header, and trusts a real one', async () => {
    const real = await renderPage({ width: 12, height: 34, color: [1, 2, 3], format: 'jpeg' });
    expect((await probeImage(real)).bad).toBeUndefined();
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x04, 0, 0]), Buffer.alloc(64, 0x20)]);
    expect((await probeImage(garbage)).bad).toBeDefined();
  });
});
