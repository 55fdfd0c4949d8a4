// server/media/bmp-decode.ts on hostile bitmaps: every one refused with DecodeRefused before its
// pixels are allocated, never read past its bytes.
import { describe, expect, it } from 'vitest';
import { decodeBitmap } from '../../../server/media/bmp-decode.ts';
import { DecodeRefused } from '../../../server/media/image-decode.ts';
import { writeBitmap } from '../../fixtures/bitmaps.ts';

/** A bitmap's headers and colour table, declaring `width` × `height`, followed by that many (zero) pixels. */
function enlarged(small: Buffer, width: number, height: number, bits: number): Buffer {
  const pixelOffset = small.readUInt32LE(10);
  const large = Buffer.alloc(pixelOffset + Math.floor((bits * width + 31) / 32) * 4 * height);
  small.copy(large, 0, 0, pixelOffset);
  large.writeInt32LE(width, 18);
  large.writeInt32LE(height, 22);
  return large;
}

const grey = () => [90, 90, 90] as [number, number, number];

describe('decodeBitmap', () => {
  it('refuses a bitmap declaring more pixels than the limit, from its header', () => {
    const liar = writeBitmap('24-bit', 4, 4, grey);
    liar.writeInt32LE(60_000, 18);
    liar.writeInt32LE(60_000, 22);
    expect(() => decodeBitmap(liar, 64_000_000)).toThrow(/over the 64000000-pixel decode limit/);
  });

  it('refuses a bitmap whose pixels end before the file does, and one cut inside its header', () => {
    const whole = writeBitmap('24-bit', 40, 30, grey);
    expect(() => decodeBitmap(whole.subarray(0, whole.length - 1), 64_000_000)).toThrow(DecodeRefused);
    expect(() => decodeBitmap(whole.subarray(0, 30), 64_000_000)).toThrow(/ends inside its header/);
  });

  it('refuses run-length compressed and OS/2-compressed bitmaps by name, and empty ones', () => {
    const rle = writeBitmap('4-bit palette', 8, 8, grey);
    rle.writeUInt32LE(2, 30);
    expect(() => decodeBitmap(rle, 64_000_000)).toThrow(/compression 2 .* not decoded/);
    const empty = writeBitmap('24-bit', 4, 4, grey);
    empty.writeInt32LE(0, 18);
    expect(() => decodeBitmap(empty, 64_000_000)).toThrow(/declares 0 × 4 pixels/);
  });

  it('draws indexes past a short colour table with its last colour instead of reading past it', () => {
    const short = writeBitmap('4-bit palette', 5, 5, grey);
    // Every pixel points at entry 15 of an 8-entry table.
    short.fill(255, short.readUInt32LE(10));
    const bitmap = decodeBitmap(short, 64_000_000);
    expect([...bitmap.data.subarray(0, 3)]).toEqual([90, 40, 140]);
  });

  it('refuses a colour-table bitmap over 24 Mpx (converted pixel by pixel on the serving thread), not a grey one', () => {
    const large = enlarged(writeBitmap('4-bit palette', 1, 1, grey), 5000, 5000, 4);
    expect(() => decodeBitmap(large, 64_000_000)).toThrow(/over the 24000000-pixel limit of its kind/);
    const greys = enlarged(writeBitmap('8-bit grey', 1, 1, grey), 5000, 5000, 8);
    expect(decodeBitmap(greys, 64_000_000)).toMatchObject({ width: 5000, height: 5000, channels: 1 });
  });
});
