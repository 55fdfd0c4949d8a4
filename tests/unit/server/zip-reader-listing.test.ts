import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { zipReader } from '../../../server/media/zip-reader.ts';
import { openByContent } from '../../../server/media/analyse-container.ts';
import { readdirSync } from 'node:fs';

/*
 * The zip reader reads a listing through a window of the file (the end record's 64 KiB, then
 * 64 KiB read ahead), and an entry's local header together with its first bytes. What that must
 * not change: every entry listed, in order, whatever the size of the central directory or of an
 * archive comment; the bytes of each entry whatever its local header holds; ERR_1007 for a header
 * that lies.
 */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-zip-listing-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const contentOf = (i: number) => Buffer.from(`entry ${i} `.repeat(1 + (i % 7)));

async function writeYazl(path: string, names: string[], comment?: string): Promise<void> {
  const zip = new yazl.ZipFile();
  names.forEach((name, i) => zip.addBuffer(contentOf(i), name, { compress: false, mtime: new Date(2020, 0, 1) }));
  if (comment === undefined) zip.end();
  else zip.end({ forceZip64Format: false, comment });
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(path);
    out.on('close', () => resolve());
    out.on('error', reject);
    zip.outputStream.pipe(out);
  });
}

/**
 * A zip of `count` empty stored entries, with the zip64 end records a count over 65,535 needs
 * (written by hand: yazl takes about a minute for 100,000 entries).
 */
function emptyEntriesZip64(count: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const name = Buffer.from(`e${i}.txt`);
    const local = Buffer.alloc(30 + name.length);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(name.length, 26);
    name.copy(local, 30);
    const central = Buffer.alloc(46 + name.length);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(45, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    name.copy(central, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4);
  zip64End.writeUInt16LE(45, 12);
  zip64End.writeUInt16LE(45, 14);
  zip64End.writeBigUInt64LE(BigInt(count), 24);
  zip64End.writeBigUInt64LE(BigInt(count), 32);
  zip64End.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64End.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([...locals, directory, zip64End, locator, end]);
}

interface HandEntry {
  name: string;
  data: Buffer;
  /** Extra field bytes of the local header only (the central directory's stays empty). */
  localExtra?: number;
  signature?: number;
  /** Declared size (both sizes), when it should differ from the data's. */
  declared?: number;
}

/** A stored-only zip written field by field, so that local headers can say what writers rarely do. */
function handMadeZip(entries: HandEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const size = entry.declared ?? entry.data.length;
    // One extra block (id 0xcafe) filling the asked length.
    const extra = Buffer.alloc(entry.localExtra ?? 0);
    if (extra.length >= 4) {
      extra.writeUInt16LE(0xcafe, 0);
      extra.writeUInt16LE(extra.length - 4, 2);
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(entry.signature ?? 0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt32LE(size, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt32LE(size, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    const record = Buffer.concat([local, name, extra, entry.data]);
    locals.push(record);
    centrals.push(Buffer.concat([central, name]));
    offset += record.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('zip reader, listing through a window of the file', () => {
  it('lists a central directory far larger than the end record’s 64 KiB, behind a long comment', async () => {
    // About 330 KiB of central directory records, and a 60,000-character archive comment.
    const names = Array.from({ length: 3000 }, (_, i) => `Some Series/Chapter ${String(i).padStart(5, '0')} - a title long enough to matter.jpg`);
    const path = join(dir, 'Big.cbz');
    await writeYazl(path, names, 'c'.repeat(60_000));
    const book = await zipReader.open(path);
    try {
      expect(book.entries().map((e) => e.name)).toEqual(names);
      for (const i of [0, 1, 1499, 2998, 2999]) {
        expect(await book.readPrefix(names[i]!, 1024)).toEqual(contentOf(i));
      }
    } finally {
      book.close();
    }
  });

  it('lists a tiny archive, and one with a single entry', async () => {
    for (const names of [['a.jpg', 'b.jpg'], ['only.jpg']]) {
      const path = join(dir, `${names.length}.cbz`);
      await writeYazl(path, names);
      const book = await zipReader.open(path);
      expect(book.entries().map((e) => e.name)).toEqual(names);
      expect(await book.readPrefix(names.at(-1)!, 4)).toEqual(contentOf(names.length - 1).subarray(0, 4));
      book.close();
    }
  });

  it('reads an entry whose local header is longer than its central one, within and past the room allowed for it', async () => {
    const data = (n: number) => Buffer.alloc(5000, n);
    const path = join(dir, 'Extra.cbz');
    await writeFile(path, handMadeZip([
      { name: '1.jpg', data: data(1), localExtra: 12 },
      { name: '2.jpg', data: data(2), localExtra: 400 },
      { name: '3.jpg', data: data(3), localExtra: 4000 },
    ]));
    const book = await zipReader.open(path);
    try {
      for (const [i, name] of ['1.jpg', '2.jpg', '3.jpg'].entries()) {
        // Twice: the second read starts where the first found the data.
        expect(await book.readPrefix(name, 100)).toEqual(data(i + 1).subarray(0, 100));
        expect(await book.readPrefix(name, 9000)).toEqual(data(i + 1));
      }
    } finally {
      book.close();
    }
  });

  it('refuses a local header without its signature, or whose data runs past the end of the file (ERR_1007)', async () => {
    const path = join(dir, 'Lies.cbz');
    await writeFile(path, handMadeZip([
      { name: 'good.jpg', data: Buffer.alloc(300, 7) },
      { name: 'unsigned.jpg', data: Buffer.alloc(300, 8), signature: 0x12345678 },
      { name: 'overflowing.jpg', data: Buffer.alloc(300, 9), declared: 1_000_000 },
    ]));
    const book = await zipReader.open(path);
    try {
      expect(await book.readPrefix('good.jpg', 64)).toEqual(Buffer.alloc(64, 7));
      await expect(book.readPrefix('unsigned.jpg', 64)).rejects.toMatchObject({ code: 'ERR_1007', message: expect.stringMatching(/signature/) });
      await expect(book.readPrefix('overflowing.jpg', 64)).rejects.toMatchObject({ code: 'ERR_1007', message: expect.stringMatching(/overflows/) });
    } finally {
      book.close();
    }
  });

  it('refuses a zip listing more entries than any book has (ERR_1008), before holding them', async () => {
    const path = join(dir, 'Swarm.cbz');
    // One more than MAX_ARCHIVE_ENTRIES (100,000).
    await writeFile(path, emptyEntriesZip64(100_001));
    const descriptors = () => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    await expect(openByContent(path)).rejects.toMatchObject({ code: 'ERR_1008', message: expect.stringMatching(/100001 entries/) });
    // The file's descriptor is closed as the refusal goes out, by a close that may finish a moment
    // later (CI once saw one more than before at the first look); one kept open never comes back.
    await expect.poll(descriptors).toBe(before);
  });

  it('opens a zip book once by its content, and leaves no descriptor behind when it is no zip after all (ERR_1008)', async () => {
    const good = join(dir, 'Good.cbz');
    await writeYazl(good, ['1.jpg', '2.jpg']);
    const broken = join(dir, 'Broken.cbz');
    // A local file header's signature, then nothing a zip reader can list.
    await writeFile(broken, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(4000, 0x20)]));
    const descriptors = () => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    for (let round = 0; round < 20; round++) {
      const { reader, book } = await openByContent(good);
      expect(reader.mediaType).toBe('application/zip');
      expect(await book.readPrefix('2.jpg', 100)).toEqual(contentOf(1));
      book.close();
      await expect(openByContent(broken)).rejects.toMatchObject({ code: 'ERR_1008' });
    }
    await expect.poll(descriptors).toBe(before);
  });
});
