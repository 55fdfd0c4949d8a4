import sharp from 'sharp';

/** What the first bytes of an entry say about it. */
export interface ImageProbe {
  mediaType: string | null;
  width: number | null;
  height: number | null;
  /** Set when dimensions sit beyond the bytes given (e.g. a JPEG with a huge EXIF block): how many are needed. */
  needBytes?: number;
  /**
   * Set when the header says the image is not what it claims: its structure cannot be parsed, or
   * it declares dimensions no real page has (a 148-byte "PNG" of 1.6 billion pixels a side).
   */
  bad?: string;
  /** Why a header sharp was asked to read gave no size (not conclusive: the prefix may be short). */
  unreadable?: string;
}

/** Largest side and pixel count a page may declare; beyond either the header is lying. */
const MAX_DECLARED_SIDE = 1 << 20;
const MAX_DECLARED_PIXELS = 2 ** 31;

const IMAGE_EXTENSIONS: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heif',
  heif: 'image/heif',
  jxl: 'image/jxl',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
};

/** Media type implied by an entry's extension; a hint only, content sniffing decides. */
export function mediaTypeFromExtension(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? null : (IMAGE_EXTENSIONS[name.slice(dot + 1).toLowerCase()] ?? null);
}

/** Identifies the image format from magic bytes. */
export function sniffImageType(head: Buffer): string | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (head.length >= 6 && head.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') return heifFamilyType(head);
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0x0a) return 'image/jxl';
  if (head.length >= 12 && head.readUInt32BE(0) === 0x0c && head.toString('latin1', 4, 8) === 'JXL ') return 'image/jxl';
  if (isBitmap(head)) return 'image/bmp';
  if (head.length >= 4 && (head.readUInt32BE(0) === 0x49492a00 || head.readUInt32BE(0) === 0x4d4d002a)) return 'image/tiff';
  return null;
}

/**
 * AVIF and HEIF share one container; its file type box names a major brand and compatible ones.
 * Writers may put the generic "mif1" first and "avif" among the others: that is an AVIF, which
 * browsers draw as it is, where a HEIF (HEVC, as phones write) must be converted on the server.
 */
function heifFamilyType(head: Buffer): string | null {
  const major = head.toString('latin1', 8, 12);
  const boxEnd = Math.min(head.readUInt32BE(0), head.length);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= boxEnd; at += 4) compatible.push(head.toString('latin1', at, at + 4));
  const hevc = ['heic', 'heix', 'hevc', 'hevx'];
  if (hevc.includes(major)) return 'image/heif';
  if (major === 'avif' || major === 'avis') return 'image/avif';
  if (['mif1', 'msf1', 'miaf'].includes(major)) {
    if (!compatible.some((brand) => hevc.includes(brand)) && compatible.some((brand) => brand === 'avif' || brand === 'avis')) return 'image/avif';
    return 'image/heif';
  }
  return null;
}

/**
 * Sizes of the BMP info headers that follow the 14-byte file header: OS/2 1.x and Windows 2 (12),
 * OS/2 2.x (16 and 64), Windows 3 (40), its V2 and V3 extensions (52, 56), V4 (108), V5 (124).
 */
const BMP_INFO_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

/**
 * "BM" alone is two letters any text may start with (a scan group's "BMX Bandits" credits), which
 * would become a bad page slot in the book. A bitmap also says how long its info header is.
 */
function isBitmap(head: Buffer): boolean {
  return head.length >= 18 && head.toString('latin1', 0, 2) === 'BM' && BMP_INFO_HEADER_SIZES.has(head.readUInt32LE(14));
}

/**
 * Reads width/height from an image header without decoding pixels. Small hand parsers cover the
 * common comic formats; rarer ones go through sharp's metadata reader on the same prefix.
 */
export async function probeImage(head: Buffer): Promise<ImageProbe> {
  const mediaType = sniffImageType(head);
  if (!mediaType) return { mediaType: null, width: null, height: null };
  const size = parseDimensions(mediaType, head);
  if (size === 'need-more') return { mediaType, width: null, height: null, needBytes: head.length * 4 };
  if (size) {
    const bad = implausible(size);
    return bad ? { mediaType, width: null, height: null, bad } : { mediaType, ...size };
  }
  // The formats parsed by hand above have their size up front: no size means a broken header.
  if (size === null && HAND_PARSED.has(mediaType)) return { mediaType, width: null, height: null, bad: 'image header cannot be parsed' };
  try {
    const meta = await sharp(head, { failOn: 'none' }).metadata();
    // As shown (EXIF orientation applied), like the JPEG parser above.
    const shown = meta.autoOrient;
    return { mediaType, width: shown.width ?? null, height: shown.height ?? null };
  } catch (error) {
    // Formats whose size may sit past the prefix (TIFF, HEIF…): unknown size, reason kept.
    return { mediaType, width: null, height: null, unreadable: String(error) };
  }
}

/** Reads the first `length` bytes of an entry (fewer when the entry is shorter). */
export type PrefixReader = (length: number) => Promise<Buffer>;

/**
 * What an archive entry's first bytes say it is, reading more of it (up to `maxPrefix`) while its
 * header needs more to give the size and dimensions are asked for. One place for every format's
 * analysis (comic archives, image EPUBs), so an image page is judged the same wherever it is stored.
 *
 * An image whose bytes end before its header gives its size (a copy cut short, a page saved part
 * way) is as bad as a lying one: nothing can draw it, and the book is told (ERR_1007). An image
 * whose header is only past `maxPrefix` (megabytes of metadata first) is not bad, just not measured.
 */
export async function probeEntryHead(read: PrefixReader, size: number, firstPrefix: number, maxPrefix: number, withDimensions: boolean): Promise<ImageProbe> {
  let head = await read(Math.min(firstPrefix, size));
  let probe = await probeImage(head);
  // Only chase deeper headers (huge EXIF/ICC blocks) when dimensions were asked for.
  while (withDimensions && probe.needBytes && head.length < size && head.length < maxPrefix) {
    head = await read(Math.min(probe.needBytes, maxPrefix, size));
    probe = await probeImage(head);
  }
  if (probe.mediaType && probe.needBytes && head.length >= size) {
    return { mediaType: probe.mediaType, width: null, height: null, bad: `image ends after ${size} bytes, before its header gives its size` };
  }
  return probe;
}

type Dimensions = { width: number; height: number };

const HAND_PARSED = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp']);

function implausible({ width, height }: Dimensions): string | undefined {
  if (width < 1 || height < 1) return `image header declares ${width} × ${height} pixels`;
  if (width > MAX_DECLARED_SIDE || height > MAX_DECLARED_SIDE || width * height > MAX_DECLARED_PIXELS) {
    return `image header declares an implausible ${width} × ${height} pixels`;
  }
  return undefined;
}

function parseDimensions(mediaType: string, b: Buffer): Dimensions | 'need-more' | null {
  switch (mediaType) {
    case 'image/jpeg':
      return jpegDimensions(b);
    case 'image/png':
      // The first chunk must be IHDR, which holds the size.
      if (b.length < 24) return 'need-more';
      return b.toString('latin1', 12, 16) === 'IHDR' ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : null;
    case 'image/gif':
      return b.length >= 10 ? { width: b.readUInt16LE(6), height: b.readUInt16LE(8) } : 'need-more';
    case 'image/webp':
      return webpDimensions(b);
    case 'image/bmp':
      // The 12-byte core header holds 16-bit sizes; the others signed 32-bit ones (negative height: rows top-down).
      if (b.readUInt32LE(14) === 12) return b.length >= 22 ? { width: b.readUInt16LE(18), height: b.readUInt16LE(20) } : 'need-more';
      return b.length >= 26 ? { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) } : 'need-more';
    default:
      return null;
  }
}

/**
 * Walks JPEG marker segments to the first SOFn frame header. The size reported is the page as shown:
 * browsers turn a JPEG by its EXIF orientation when decoding (createImageBitmap, ImageDecoder, <img>),
 * so a photo stored 1600 × 800 with orientation 6 or 8 is an 800 × 1600 page, and readers lay it out
 * and pair spreads by that size. Komga reports the stored size; its readers then show such a page in
 * a box of the wrong shape. The EXIF block comes before the frame header, so it is always whole here.
 */
function jpegDimensions(b: Buffer): Dimensions | 'need-more' | null {
  let offset = 2;
  let orientation = 1;
  while (offset + 4 <= b.length) {
    if (b[offset] !== 0xff) return null;
    const marker = b[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = b.readUInt16BE(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (offset + 9 > b.length) return 'need-more';
      const height = b.readUInt16BE(offset + 5);
      const width = b.readUInt16BE(offset + 7);
      // Orientations 5–8 turn the image a quarter (with or without a mirror): width and height swap.
      return orientation >= 5 && orientation <= 8 ? { width: height, height: width } : { width, height };
    }
    // The first EXIF block decides, as in browsers; a block cut off by the prefix is read once whole.
    if (marker === 0xe1 && orientation === 1 && offset + 2 + length <= b.length) {
      orientation = exifOrientation(b.subarray(offset + 4, offset + 2 + length)) ?? orientation;
    }
    if (marker === 0xda || marker === 0xd9) return null; // scan data before any frame header: malformed
    offset += 2 + length;
  }
  return 'need-more';
}

/** The Orientation tag (0x0112) of IFD0 in an APP1 segment's payload, when it is an EXIF block holding one. */
function exifOrientation(app1: Buffer): number | null {
  if (app1.length < 14 || app1.toString('latin1', 0, 6) !== 'Exif\0\0') return null;
  const tiff = app1.subarray(6);
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return null;
    // Type 3 is SHORT: the value sits in the first two bytes of the value field.
    if (u16(entry) === 0x0112 && u16(entry + 2) === 3) return u16(entry + 8);
  }
  return null;
}

function webpDimensions(b: Buffer): Dimensions | 'need-more' | null {
  if (b.length < 30) return 'need-more';
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return null;
}
