/*
 * Windows bitmaps (BMP) decoded to raw pixels for sharp, whose libvips build reads no BMP: pages
 * that are bitmaps were served as stored but had no thumbnail, poster or `?convert` (422), while
 * Komga draws them. Written here because the registry's BMP decoders (bmp-js, unmaintained since
 * 2016, and its fork bmp-ts) read the pixels right after the palette whatever the header's pixel
 * offset says, know no OS/2 header, walk every byte through readUInt8 on the serving thread, and
 * their RLE loops let a few bytes rewrite a row without end.
 *
 * Read: the 12-byte OS/2 1.x core header and the Windows headers (40 to 124 bytes); uncompressed
 * 1-, 4-, 8-, 16-, 24- and 32-bit pixels, and bit fields (16 and 32 bits). Refused with
 * DecodeRefused: RLE and embedded JPEG/PNG compression (rare for scanned pages), a pixel area
 * over the decode limit (checked from the header, before anything is allocated; for colour tables
 * other than greys and for bit fields, converted pixel by pixel, 24 Mpx), and pixels that end
 * before the file does. 24- and 32-bit pixels (nearly every bitmap page) are copied row
 * by row and left in their blue-green-red order for sharp to swap: no work per pixel here.
 */
import { DecodeRefused } from './decode-refused.ts';

/**
 * Pixels for sharp's raw input. `bgr`: the colour channels are stored blue first; `padded`: the
 * fourth channel is a reserved byte, not alpha (plain 32-bit bitmaps, most of which leave it 0).
 */
export interface RawBitmap {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  bgr: boolean;
  padded?: boolean;
}

/** What a bitmap's headers say, without its pixels. */
export interface BitmapHeader {
  width: number;
  height: number;
  /** Rows stored top row first (a negative height in the header). */
  topDown: boolean;
  bitsPerPixel: number;
  compression: number;
  pixelOffset: number;
  /** Colour table entries, as blue-green-red(-reserved) quads or triples. */
  palette: Buffer;
  paletteEntrySize: 3 | 4;
  masks: { red: number; green: number; blue: number; alpha: number } | null;
}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;
const WINDOWS_HEADER_SIZES = new Set([40, 52, 56, 64, 108, 124]);

/** True for bytes that start as a bitmap with a header this module reads. */
export function isBitmap(bytes: Buffer): boolean {
  return bytes.length >= 18 && bytes[0] === 0x42 && bytes[1] === 0x4d && (bytes.readUInt32LE(14) === 12 || WINDOWS_HEADER_SIZES.has(bytes.readUInt32LE(14)));
}

/** The headers of a bitmap (isBitmap true); DecodeRefused when they are cut short or make no sense. */
export function readBitmapHeader(bytes: Buffer): BitmapHeader {
  const headerSize = bytes.readUInt32LE(14);
  if (bytes.length < 14 + headerSize) throw new DecodeRefused('bitmap ends inside its header');
  const pixelOffset = bytes.readUInt32LE(10);
  if (headerSize === 12) {
    const bitsPerPixel = bytes.readUInt16LE(24);
    const entries = bitsPerPixel <= 8 ? 1 << bitsPerPixel : 0;
    const palette = bytes.subarray(26, Math.min(26 + entries * 3, pixelOffset, bytes.length));
    return { width: bytes.readUInt16LE(18), height: bytes.readUInt16LE(20), topDown: false, bitsPerPixel, compression: BI_RGB, pixelOffset, palette, paletteEntrySize: 3, masks: null };
  }
  const rawHeight = bytes.readInt32LE(22);
  const bitsPerPixel = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  // OS/2 2.x's 64-byte header numbers its compressions otherwise (3 is Huffman, not bit fields).
  if (headerSize === 64 && compression !== BI_RGB) throw new DecodeRefused(`OS/2 bitmap with compression ${compression} is not decoded`);
  let tableStart = 14 + headerSize;
  let masks: BitmapHeader['masks'] = null;
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    // The masks are in the header from 52 bytes on; after a 40-byte header, they follow it.
    const withAlpha = compression === BI_ALPHABITFIELDS || headerSize >= 56;
    if (headerSize === 40) tableStart += withAlpha ? 16 : 12;
    if (bytes.length < 54 + (withAlpha ? 16 : 12)) throw new DecodeRefused('bitmap ends inside its colour masks');
    masks = { red: bytes.readUInt32LE(54), green: bytes.readUInt32LE(58), blue: bytes.readUInt32LE(62), alpha: withAlpha ? bytes.readUInt32LE(66) : 0 };
  }
  const used = bytes.readUInt32LE(46);
  const entries = bitsPerPixel <= 8 ? (used > 0 && used < 1 << bitsPerPixel ? used : 1 << bitsPerPixel) : 0;
  const palette = bytes.subarray(tableStart, Math.max(tableStart, Math.min(tableStart + entries * 4, pixelOffset, bytes.length)));
  return { width: bytes.readInt32LE(18), height: Math.abs(rawHeight), topDown: rawHeight < 0, bitsPerPixel, compression, pixelOffset, palette, paletteEntrySize: 4, masks };
}

/** A bitmap's pixels, within `maxPixels`; DecodeRefused for what this module does not read (see above). */
export function decodeBitmap(bytes: Buffer, maxPixels: number): RawBitmap {
  const header = readBitmapHeader(bytes);
  const { width, height, bitsPerPixel: bits, compression } = header;
  if (width < 1 || height < 1) throw new DecodeRefused(`bitmap declares ${width} × ${height} pixels`);
  if (width * height > maxPixels) throw new DecodeRefused(`bitmap declares ${width} × ${height} pixels, over the ${maxPixels}-pixel decode limit`);
  const plain = compression === BI_RGB && [1, 4, 8, 16, 24, 32].includes(bits);
  const fields = (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) && (bits === 16 || bits === 32);
  if (!plain && !fields) throw new DecodeRefused(`bitmap of ${bits} bits a pixel with compression ${compression} (RLE or embedded JPEG/PNG) is not decoded`);
  // Rows are padded to four bytes.
  const stride = Math.floor((bits * width + 31) / 32) * 4;
  if (header.pixelOffset + stride * height > bytes.length) throw new DecodeRefused('bitmap ends before its pixels do');
  const row = (y: number) => header.pixelOffset + (header.topDown ? y : height - 1 - y) * stride;

  if (bits === 24 || (bits === 32 && isPlainBgra(header))) {
    const channels = bits === 24 ? 3 : 4;
    const data = Buffer.allocUnsafe(width * height * channels);
    for (let y = 0; y < height; y++) bytes.copy(data, y * width * channels, row(y), row(y) + width * channels);
    return { data, width, height, channels, bgr: true, padded: bits === 32 && !header.masks?.alpha };
  }
  if (bits <= 8 && isGreyTable(header)) return greyPixels(bytes, header, row);
  // Below: a loop per pixel on the serving thread (~12 ns a pixel), so a smaller area is decoded.
  if (width * height > PER_PIXEL_MAX_PIXELS) {
    throw new DecodeRefused(`bitmap of ${bits} bits a pixel declares ${width} × ${height} pixels, over the ${PER_PIXEL_MAX_PIXELS}-pixel limit of its kind`);
  }
  if (bits <= 8) return palettePixels(bytes, header, row);
  return maskedPixels(bytes, header, row);
}

/**
 * Pixels of colour tables and bit fields are converted one by one on the serving thread: 0.7 s
 * for 64 Mpx measured under load, time in which no other request is answered. 24 Mpx (a 4,000 ×
 * 6,000 scan: about 0.25 s) is more than any page of those kinds needs; a larger one is served
 * as stored and not decoded.
 */
const PER_PIXEL_MAX_PIXELS = 24_000_000;

/** A 256-entry table of greys in order (scans saved as 8-bit greys): the indexes are the pixels. */
function isGreyTable({ bitsPerPixel, palette, paletteEntrySize: size }: BitmapHeader): boolean {
  if (bitsPerPixel !== 8 || palette.length < 256 * size) return false;
  for (let i = 0; i < 256; i++) if (palette[i * size] !== i || palette[i * size + 1] !== i || palette[i * size + 2] !== i) return false;
  return true;
}

function greyPixels(bytes: Buffer, { width, height }: BitmapHeader, row: (y: number) => number): RawBitmap {
  const data = Buffer.allocUnsafe(width * height);
  for (let y = 0; y < height; y++) bytes.copy(data, y * width, row(y), row(y) + width);
  return { data, width, height, channels: 1, bgr: false };
}

/**
 * 32-bit pixels stored blue, green, red, then alpha or nothing: plain ones (the fourth byte is
 * reserved: most writers leave it 0, so it is not alpha) and bit fields of those same masks.
 */
function isPlainBgra(header: BitmapHeader): boolean {
  const masks = header.masks;
  return masks === null || (masks.red === 0xff0000 && masks.green === 0xff00 && masks.blue === 0xff && (masks.alpha === 0 || masks.alpha === 0xff000000));
}

/** 1-, 4- and 8-bit pixels: indexes into the colour table, looked up one by one. */
function palettePixels(bytes: Buffer, header: BitmapHeader, row: (y: number) => number): RawBitmap {
  const { width, height, bitsPerPixel: bits, palette, paletteEntrySize: size } = header;
  const count = Math.floor(palette.length / size);
  if (count === 0) throw new DecodeRefused('bitmap has no colour table');
  // Indexes past the table (a hostile or careless writer) draw its last colour.
  const lut = Buffer.alloc(256 * 3);
  for (let i = 0; i < 256; i++) {
    const at = Math.min(i, count - 1) * size;
    lut[i * 3] = palette[at + 2]!;
    lut[i * 3 + 1] = palette[at + 1]!;
    lut[i * 3 + 2] = palette[at]!;
  }
  const data = Buffer.allocUnsafe(width * height * 3);
  const perByte = 8 / bits;
  const mask = (1 << bits) - 1;
  // Kept to array reads and shifts (see PER_PIXEL_MAX_PIXELS).
  for (let y = 0, out = 0; y < height; y++) {
    const start = row(y);
    for (let x = 0; x < width; ) {
      // x is at the first pixel of a byte here.
      const byte = bytes[start + x / perByte]!;
      for (let shift = 8 - bits; shift >= 0 && x < width; shift -= bits, x++, out += 3) {
        const at = ((byte >> shift) & mask) * 3;
        data[out] = lut[at]!;
        data[out + 1] = lut[at + 1]!;
        data[out + 2] = lut[at + 2]!;
      }
    }
  }
  return { data, width, height, channels: 3, bgr: false };
}

/** 16-bit pixels and 32-bit bit fields of other masks: each channel taken by its mask and scaled to 8 bits. */
function maskedPixels(bytes: Buffer, header: BitmapHeader, row: (y: number) => number): RawBitmap {
  const { width, height, bitsPerPixel: bits } = header;
  // 16 bits without masks are 5-5-5.
  const masks = header.masks ?? { red: 0x7c00, green: 0x03e0, blue: 0x001f, alpha: 0 };
  const channels = masks.alpha !== 0 ? 4 : 3;
  const take = [masks.red, masks.green, masks.blue, masks.alpha].slice(0, channels).map(channelOf);
  const data = Buffer.allocUnsafe(width * height * channels);
  for (let y = 0, out = 0; y < height; y++) {
    const start = row(y);
    for (let x = 0; x < width; x++) {
      const value = bits === 16 ? bytes.readUInt16LE(start + x * 2) : bytes.readUInt32LE(start + x * 4);
      for (const channel of take) data[out++] = channel(value);
    }
  }
  return { data, width, height, channels, bgr: false };
}

/** Reads one channel through its mask, scaled to 0-255 (an empty mask reads 0). */
function channelOf(mask: number): (value: number) => number {
  const unsigned = mask >>> 0;
  if (unsigned === 0) return () => 0;
  let shift = 0;
  while (((unsigned >>> shift) & 1) === 0) shift++;
  const max = unsigned >>> shift;
  return (value) => Math.round((((value >>> 0) & unsigned) >>> shift) * 255 / max);
}
