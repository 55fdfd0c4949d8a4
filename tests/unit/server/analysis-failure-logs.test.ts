import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { RED, createCbz, createSampleLibrary, type SampleLibrary } from '../../fixtures/index.ts';
import { logFilePath } from '../../../server/logging.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A broken book keeps only a Komga error code in its media comment; the log is where an
 * administrator learns which file it is and why it failed, so every failure is logged there.
 */

let server: TestServer;
let sample: SampleLibrary;
beforeEach(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  sample = await createSampleLibrary(join(server.dir, 'library'));
});
afterEach(async () => {
  await server.close();
});

type LogLine = { level: number; msg: string; bookId?: string; file?: string; code?: string; entries?: string[]; err?: { message: string } };

describe('books that fail analysis', () => {
  it('are each logged with the book, its file, the code recorded and the cause', async () => {
    const cut = await createCbz(join(sample.root, 'Cut', 'cut.cbz'), [{ width: 50, height: 50, color: RED, format: 'png' }]);
    await writeFile(cut.path, (await readFile(cut.path)).subarray(0, -30));
    await createCbz(join(sample.root, 'Empty', 'empty.cbz'), [], { extraEntries: [{ name: 'a.txt', data: Buffer.from('x') }] });
    const bad = await createCbz(join(sample.root, 'Bad', 'bad.cbz'), [
      { width: 10, height: 20, color: RED, format: 'png', name: 'page 1.png' },
      { width: 10, height: 20, color: RED, format: 'png', name: 'page 2.png' },
    ]);
    const bytes = await readFile(bad.path);
    bytes.writeUInt32LE(0x05034b50, bytes.indexOf('page 2.png') - 30);
    await writeFile(bad.path, bytes);
    await addLibrary(server, sample.root);
    const books = new Map((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b]));
    await server.app.close();
    const log = (await readFile(logFilePath(server.dataDir), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
    const about = (name: string) => {
      const book = books.get(name)!;
      return { media: book.media, lines: log.filter((l) => l.bookId === book.id && l.level >= 40) };
    };
    const cutBook = about('cut');
    expect(cutBook.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008' });
    expect(cutBook.lines).toEqual([expect.objectContaining({ code: 'ERR_1008', file: cut.path, err: expect.objectContaining({ message: expect.stringContaining('cannot list zip entries') }) })]);
    const broken = about('broken');
    expect(broken.media).toMatchObject({ status: 'UNSUPPORTED', comment: 'ERR_1001' });
    expect(broken.lines).toEqual([expect.objectContaining({ code: 'ERR_1001', file: expect.stringContaining('broken') })]);
    const empty = about('empty');
    expect(empty.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1006' });
    expect(empty.lines).toEqual([expect.objectContaining({ code: 'ERR_1006', file: expect.stringContaining('empty.cbz') })]);
    const badBook = about('bad');
    expect(badBook.media).toMatchObject({ status: 'READY', comment: 'ERR_1007' });
    expect(badBook.lines).toContainEqual(expect.objectContaining({ code: 'ERR_1007', file: bad.path, entries: ['page 2.png'] }));
    // Healthy books log nothing at warning level.
    expect(about('Alpha 01').lines).toEqual([]);
  });

  it('a book file whose name is not UTF-8 is logged as skipped instead of left unseen', async () => {
    // ISO-8859-1 "Café.cbz" as an old Windows share or zip extraction leaves it: byte 0xE9 alone.
    const folder = join(sample.root, 'Latin');
    const good = await createCbz(join(folder, 'good.cbz'), [{ width: 10, height: 20, color: RED, format: 'png' }]);
    await copyFile(good.path, Buffer.concat([Buffer.from(`${folder}/Caf`), Buffer.from([0xe9]), Buffer.from('.cbz')]));
    await addLibrary(server, sample.root);
    await server.app.close();
    const log = (await readFile(logFilePath(server.dataDir), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
    expect(log).toContainEqual(expect.objectContaining({ level: 40, file: `${folder}/Caf\uFFFD.cbz`, msg: expect.stringContaining('not valid UTF-8') }));
  });
});
