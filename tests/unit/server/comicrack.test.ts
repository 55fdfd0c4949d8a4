import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { xmlWorker } from '../../../server/media/xml-parsing.ts';
import { IMPORT_LIMITS } from '../../../server/domain/metadata/imported-text.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
const page = { width: 10, height: 10, color: RED, format: 'png' as const };

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'lib');
  await createCbz(join(root, 'Batman', 'Batman 001.cbz'), [page], { comicInfo: { series: 'Batman (2016)', number: '1' } });
  await createCbz(join(root, 'Batman', 'Batman 002.cbz'), [page], { comicInfo: { series: 'Batman (2016)', number: '2' } });
  await createCbz(join(root, 'Robin', 'Robin 1.cbz'), [page], { comicInfo: { series: 'Robin', number: '1' } });
  await addLibrary(server, root);
});
afterAll(async () => {
  await server.close();
});

function upload(xml: string | Buffer) {
  const boundary = '----cbl-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="list.cbl"\r\nContent-Type: application/xml\r\n\r\n`),
    Buffer.from(xml),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return server.app.inject({
    method: 'POST',
    url: '/api/v1/readlists/match/comicrack',
    headers: { ...server.admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

describe('ComicRack reading list matching', () => {
  it('matches books by series title (with volume) and number', async () => {
    const response = await upload(`<?xml version="1.0"?>
      <ReadingList><Name>Night Patrol</Name><Books>
        <Book Series="Batman" Number="002" Volume="2016" Year="2016"/>
        <Book Series="Robin" Number="1"/>
        <Book Series="Nobody" Number="9"/>
      </Books></ReadingList>`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.errorCode).toBe('');
    expect(body.readListMatch).toEqual({ name: 'Night Patrol', errorCode: '' });
    expect(body.requests.map((r: { request: unknown }) => r.request)).toEqual([
      { series: ['Batman (2016)', 'Batman'], number: '002' },
      { series: ['Robin'], number: '1' },
      { series: ['Nobody'], number: '9' },
    ]);
    expect(body.requests[0].matches).toHaveLength(1);
    expect(body.requests[0].matches[0].series.title).toBe('Batman (2016)');
    expect(body.requests[0].matches[0].books.map((b: { number: string }) => b.number)).toEqual(['2']);
    expect(body.requests[1].matches[0].books).toHaveLength(1);
    expect(body.requests[2].matches).toEqual([]);
  });

  it('matches a large list (20,000 books) and refuses a file over the 5 MB import limit with 413', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `<Book Series="${i % 2 ? 'Robin' : 'Batman'}" Number="${(i % 3) + 1}" Volume="2016"/>`).join('');
    const response = await upload(`<ReadingList><Name>Big</Name><Books>${many}</Books></ReadingList>`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.requests).toHaveLength(20_000);
    expect(body.requests[0].matches[0].series.title).toBe('Batman (2016)');
    expect(body.requests[3].matches[0].books).toHaveLength(1); // Robin 1
    const oversized = await upload(`<ReadingList><Name>Huge</Name><Books>${'<Book Series="A" Number="1"/>'.repeat(200_000)}</Books></ReadingList>`);
    expect(oversized.statusCode).toBe(413);
  });

  it('reads what ComicRack writes: a byte-order mark, escaped characters; declared entities are never expanded', async () => {
    const withBom = await upload(`\uFEFF<?xml version="1.0" encoding="utf-8"?>
      <ReadingList><Name>Tom &amp; Jerry</Name><Books><Book Series="Batman &amp; Co" Number="1"><Id>x</Id></Book></Books></ReadingList>`);
    expect(withBom.json()).toMatchObject({ errorCode: '', readListMatch: { name: 'Tom & Jerry' } });
    expect(withBom.json().requests[0].request).toEqual({ series: ['Batman & Co'], number: '1' });
    const entity = await upload(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "Batman">]>
      <ReadingList><Name>x</Name><Books><Book Series="&e;" Number="1"/></Books></ReadingList>`);
    expect(entity.json().errorCode).toBe('ERR_1015');
  });

  it('reports malformed lists with error codes', async () => {
    expect((await upload('not xml <')).json().errorCode).toBe('ERR_1015');
    expect((await upload('<ReadingList><Name>x</Name><Books></Books></ReadingList>')).json().errorCode).toBe('ERR_1029');
    expect((await upload('<ReadingList><Books><Book Series="a" Number="1"/></Books></ReadingList>')).json().errorCode).toBe('ERR_1030');
    expect((await upload('<ReadingList><Name>x</Name><Books><Book Series="a"/></Books></ReadingList>')).json().errorCode).toBe('ERR_1031');
  });

  it('parses a list over 16 KiB in the XML worker, not on the thread that answers requests', async () => {
    const calls = vi.spyOn(xmlWorker, 'call');
    try {
      const many = '<Book Series="Robin" Number="1"/>'.repeat(2_000);
      const response = await upload(`<ReadingList><Name>Worker</Name><Books>${many}</Books></ReadingList>`);
      expect(response.json()).toMatchObject({ errorCode: '', readListMatch: { name: 'Worker' } });
      expect(response.json().requests).toHaveLength(2_000);
      expect(calls.mock.calls.map(([request]) => request.what)).toEqual(['the ComicRack reading list list.cbl']);
      // A small one stays where it is read (a worker round trip would cost more than its parse).
      calls.mockClear();
      expect((await upload('<ReadingList><Name>x</Name><Books><Book Series="Robin" Number="1"/></Books></ReadingList>')).statusCode).toBe(200);
      expect(calls).not.toHaveBeenCalled();
    } finally {
      calls.mockRestore();
    }
  });
});

describe('hostile ComicRack reading lists', () => {
  const books = '<Books><Book Series="Batman" Volume="2016" Number="1"/></Books>';
  it('reads a list written in UTF-16 with its byte-order mark, as ComicInfo.xml is read', async () => {
    const xml = `<?xml version="1.0" encoding="utf-16"?><ReadingList><Name>Wide list</Name>${books}</ReadingList>`;
    const response = await upload(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]));
    expect(response.json()).toMatchObject({ readListMatch: { name: 'Wide list', errorCode: '' }, errorCode: '' });
  });

  it('gives back a name within the import limits (the client makes it the read list\'s)', async () => {
    const response = await upload(`<ReadingList><Name>Big ${'n'.repeat(200_000)}</Name>${books}</ReadingList>`);
    const name = (response.json() as { readListMatch: { name: string } }).readListMatch.name;
    expect(name.length).toBe(IMPORT_LIMITS.textChars);
    expect(name.startsWith('Big nnn')).toBe(true);
  });
});
