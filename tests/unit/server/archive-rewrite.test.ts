// server/media/archive-rewrite.ts on real archives written here: a RAR copied into a CBZ, and a
// zip written again without some entries, each checked entry by entry with yauzl.
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { copyBookToZip, openZipForRewrite } from '../../../server/media/archive-rewrite.ts';
import { MediaError } from '../../../server/media/book-reader.ts';
import { rar5Reader } from '../../../server/media/rar-reader.ts';
import { zipReader } from '../../../server/media/zip-reader.ts';
import { BLUE, RED, createBrokenCbz, renderPage } from '../../fixtures/index.ts';
import { oddZip } from '../../fixtures/odd-zip.ts';
import { writeRar5 } from '../../fixtures/rar.ts';
import { sevenZipPayload } from '../../fixtures/zip-methods.ts';
import { pollUntil } from '../../support/poll.ts';
import { descriptorsOn, hasPrlimit } from './support/process-files.ts';



interface RawEntry {
  name: string;
  compressionMethod: number;
  mtime: number;
  bytes: Buffer;
}

/** Every entry of a zip as stored, in order, with its bytes. */
function readZip(path: string): Promise<RawEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const entries: RawEntry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        const done = (bytes: Buffer) => {
          entries.push({ name: entry.fileName, compressionMethod: entry.compressionMethod, mtime: entry.getLastModDate().getTime(), bytes });
          zip.readEntry();
        };
        if (entry.fileName.endsWith('/')) return done(Buffer.alloc(0));
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => done(Buffer.concat(chunks)));
        });
      });
      zip.once('end', () => {
        zip.close();
        resolve(entries);
      });
      zip.once('error', reject);
      zip.readEntry();
    });
  });
}

let dir: string;
let red: Buffer;
let blue: Buffer;
const xml = Buffer.from('<?xml version="1.0"?><ComicInfo><Title>Rewritten</Title></ComicInfo>\n'.repeat(20));
const stamp = new Date(2021, 4, 6, 7, 8, 10);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-archive-rewrite-'));
  red = await renderPage({ width: 40, height: 60, color: RED, format: 'jpeg' });
  blue = await renderPage({ width: 40, height: 60, color: BLUE, format: 'png' });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Copies an opened book into a new zip, closing the book whatever happens. */
async function copyAndClose(source: Parameters<typeof copyBookToZip>[0], target: string, mode: number): Promise<void> {
  try {
    await copyBookToZip(source, target, mode);
  } finally {
    source.close();
  }
}

describe('copyBookToZip', () => {
  it('copies every file of a RAR byte for byte: images stored, the rest deflated', async () => {
    const rar = await writeRar5(join(dir, 'book.cbr'), [
      { name: 'pages/001.jpg', data: red },
      { name: 'pages/002.png', data: blue },
      { name: 'ComicInfo.xml', data: xml },
    ]);
    const target = join(dir, 'book.cbz');
    await copyAndClose(await rar5Reader.open(rar), target, 0o640);
    const entries = await readZip(target);
    expect(entries.map((e) => [e.name, e.compressionMethod])).toEqual([
      ['pages/001.jpg', 0],
      ['pages/002.png', 0],
      ['ComicInfo.xml', 8],
    ]);
    expect(entries[0]!.bytes.equals(red)).toBe(true);
    expect(entries[1]!.bytes.equals(blue)).toBe(true);
    expect(entries[2]!.bytes.equals(xml)).toBe(true);
    expect((await stat(target)).mode & 0o777).toBe(0o640);
  });

  it('never replaces a file already at the target', async () => {
    const rar = await writeRar5(join(dir, 'other.cbr'), [{ name: '001.jpg', data: red }]);
    const target = join(dir, 'taken.cbz');
    await writeFile(target, 'somebody else');
    const source = await rar5Reader.open(rar);
    try {
      await expect(copyBookToZip(source, target, 0o644)).rejects.toMatchObject({ code: 'EEXIST' });
    } finally {
      source.close();
    }
  });
});

describe('openZipForRewrite', () => {
  let original: string;

  beforeAll(async () => {
    original = join(dir, 'original.cbz');
    const zip = new yazl.ZipFile();
    zip.addEmptyDirectory('extras/', { mtime: stamp });
    zip.addBuffer(red, '001.jpg', { compress: false, mtime: stamp });
    zip.addBuffer(blue, '002.png', { compress: true, mtime: stamp });
    zip.addBuffer(red, '003.jpg', { compress: false, mtime: stamp });
    zip.addBuffer(xml, 'ComicInfo.xml', { compress: true, mtime: stamp });
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(original));
  });

  it('lists every entry in order and reads their bytes', async () => {
    const zip = await openZipForRewrite(original);
    try {
      expect(zip.entries.map((e) => e.name)).toEqual(['extras/', '001.jpg', '002.png', '003.jpg', 'ComicInfo.xml']);
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openEntry(zip.entries[2]!)) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(blue)).toBe(true);
    } finally {
      zip.close();
    }
  });

  it('copies a zip without its folder entries (copyBookToZip takes files only)', async () => {
    const target = join(dir, 'copied.cbz');
    await copyAndClose(await zipReader.open(original), target, 0o644);
    expect((await readZip(target)).map((e) => e.name)).toEqual(['001.jpg', '002.png', '003.jpg', 'ComicInfo.xml']);
  });

  it('refuses to read an entry once closed (MediaError) instead of touching a released descriptor', async () => {
    const zip = await openZipForRewrite(original);
    const [first] = zip.entries;
    zip.close();
    zip.close();
    await expect(zip.openEntry(first!)).rejects.toSatisfy((e) => e instanceof MediaError && e.code === 'ERR_1000');
  });

  it('writes the zip again without the named entries, the others kept as stored', async () => {
    const target = join(dir, 'rewritten.cbz');
    const zip = await openZipForRewrite(original);
    try {
      await zip.writeWithout(new Set(['001.jpg']), target, 0o600);
    } finally {
      zip.close();
    }
    const before = await readZip(original);
    const after = await readZip(target);
    expect(after.map((e) => e.name)).toEqual(['extras/', '002.png', '003.jpg', 'ComicInfo.xml']);
    for (const entry of after) {
      const same = before.find((e) => e.name === entry.name)!;
      expect({ name: entry.name, method: entry.compressionMethod, mtime: entry.mtime }).toEqual({
        name: same.name,
        method: same.compressionMethod,
        mtime: same.mtime,
      });
      expect(entry.bytes.equals(same.bytes)).toBe(true);
    }
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('writes a zip of Deflate64 and BZIP2 entries again without one, the others unpacked and deflated', async () => {
    const source = join(dir, 'other-methods.cbz');
    const text = (n: number) => Buffer.from(`<page n="${n}">${'panel '.repeat(2000)}</page>\n`);
    const packed = [await sevenZipPayload(text(1), 'Deflate64'), await sevenZipPayload(text(2), 'BZip2'), await sevenZipPayload(text(3), 'BZip2')];
    await writeFile(source, oddZip(packed.map((p, i) => ({ name: `0${i + 1}.xml`, data: text(i + 1), method: p.method, methodFlags: p.methodFlags, payload: p.payload }))));
    const target = join(dir, 'other-methods-rewritten.cbz');
    const zip = await openZipForRewrite(source);
    try {
      await zip.writeWithout(new Set(['02.xml']), target, 0o600);
    } finally {
      zip.close();
    }
    const after = await readZip(target);
    expect(after.map((e) => [e.name, e.compressionMethod])).toEqual([
      ['01.xml', 8],
      ['03.xml', 8],
    ]);
    expect(after[0]!.bytes.equals(text(1))).toBe(true);
    expect(after[1]!.bytes.equals(text(3))).toBe(true);
  });

  it('fails (the entry\'s MediaError) when a kept entry cannot be read, instead of waiting for ever', async () => {
    const source = join(dir, 'unreadable-kept.cbz');
    const data = Buffer.from('panel '.repeat(2000));
    const xz = await sevenZipPayload(data, 'XZ');
    await writeFile(source, oddZip([{ name: '01.png', data: red }, { name: '02.xml', data, method: xz.method, payload: xz.payload }, { name: '03.png', data: blue }]));
    const zip = await openZipForRewrite(source);
    try {
      await expect(zip.writeWithout(new Set(['01.png']), join(dir, 'unreadable-kept-rewritten.cbz'), 0o600)).rejects.toSatisfy(
        (e) => e instanceof MediaError && e.code === 'ERR_1007' && /method 95 \(XZ\)/.test(e.message),
      );
    } finally {
      zip.close();
    }
  });

  // Node ignores SIGXFSZ: past the limit a write fails with EFBIG after writing what fitted, as on a
  // disk that fills up during the write. Vitest runs this file alone in its worker process.
  it.runIf(hasPrlimit && existsSync('/proc/self/fd'))('a write that fails part way closes the entry it was copying and removes its partial file; the book stays as it was', async () => {
    const source = join(dir, 'large.cbz');
    const large = Buffer.alloc(8 * 1024 * 1024, 0x5a);
    const zip = new yazl.ZipFile();
    zip.addBuffer(red, '001.jpg', { compress: false, mtime: stamp });
    zip.addBuffer(large, '002.png', { compress: false, mtime: stamp });
    zip.addBuffer(blue, '003.png', { compress: false, mtime: stamp });
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(source));
    const bytesBefore = await readFile(source);
    const target = join(dir, 'large-rewritten.cbz');
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const softBefore = /^Max file size\s+(\S+)/m.exec(limits)![1]!;
    const rewrite = await openZipForRewrite(source);
    try {
      execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${1024 * 1024}:`]);
      await expect(rewrite.writeWithout(new Set(['001.jpg']), target, 0o600)).rejects.toMatchObject({ code: 'EFBIG' });
    } finally {
      execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${softBefore}:`]);
      rewrite.close();
    }
    expect(existsSync(target)).toBe(false);
    // yauzl closes the book's descriptor once the archive is closed and its last entry stream is done.
    await pollUntil('the book to be closed', () => descriptorsOn(source).length === 0, { timeoutMs: 5_000 });
    expect((await readFile(source)).equals(bytesBefore)).toBe(true);
  });

  it('never replaces a file already at the target', async () => {
    const target = join(dir, 'occupied.cbz');
    await writeFile(target, 'somebody else');
    const zip = await openZipForRewrite(original);
    try {
      await expect(zip.writeWithout(new Set(), target, 0o644)).rejects.toMatchObject({ code: 'EEXIST' });
    } finally {
      zip.close();
    }
  });

  it('keeps the entries past a count that says fewer (the directory is read), and refuses a directory damaged partway', async () => {
    const page = await renderPage({ width: 8, height: 8, color: RED, format: 'png' });
    const entries = ['01.png', '02.png', '03.png'].map((name) => ({ name, data: page }));
    // Its end record counts 1 of 3: a rewrite without 01.png kept nothing (02 and 03 were lost).
    const counted = join(dir, 'count-says-1.cbz');
    await writeFile(counted, oddZip(entries, { declaredCount: 1 }));
    const target = join(dir, 'count-says-1-rewritten.cbz');
    const zip = await openZipForRewrite(counted);
    try {
      await zip.writeWithout(new Set(['01.png']), target, 0o600);
    } finally {
      zip.close();
    }
    expect((await readZip(target)).map((e) => e.name)).toEqual(['02.png', '03.png']);
    // Damaged at its third header: the reader keeps 01 and 02, but a rewrite would drop 03, still in the file.
    const damaged = join(dir, 'directory-damaged.cbz');
    await writeFile(damaged, oddZip(entries, { brokenCentral: 2 }));
    await expect(openZipForRewrite(damaged)).rejects.toSatisfy((e) => e instanceof MediaError && e.code === 'ERR_1008');
  });

  it('refuses a missing file (ERR_1000) and a file that is not a zip (ERR_1008) with MediaError', async () => {
    await expect(openZipForRewrite(join(dir, 'absent.cbz'))).rejects.toSatisfy((e) => e instanceof MediaError && e.code === 'ERR_1000');
    const broken = await createBrokenCbz(join(dir, 'broken.cbz'));
    await expect(openZipForRewrite(broken)).rejects.toSatisfy((e) => e instanceof MediaError && e.code === 'ERR_1008');
  });
});
