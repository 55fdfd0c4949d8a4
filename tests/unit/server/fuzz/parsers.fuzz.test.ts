import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comicInfoXml } from '../../../fixtures/index.ts';
import { opfXml } from '../../../fixtures/epub.ts';
import { MalformedComicInfoError, parseComicInfo } from '../../../../server/domain/metadata/comicinfo.ts';
import { readComicRackList } from '../../../../server/domain/metadata/comicrack-list.ts';
import { matchComicRackList } from '../../../../server/domain/metadata/comicrack-match.ts';
import { parseContainer, parseOpf } from '../../../../server/media/epub-opf.ts';
import { applyMylar, parseMylarSeries } from '../../../../server/domain/metadata/mylar-import.ts';
import type { SeriesMetadata } from '../../../../server/db/series-metadata-repository.ts';
import { startServer, type TestServer } from '../helpers.ts';
import { CASE_MEMORY_BOUND, fuzzOptions, fuzzTimeoutMs, mutate, mutationsArbitrary, withinMemory } from './mutations.ts';

/*
 * The metadata parsers against damaged and random documents: ComicInfo.xml, EPUB container/OPF
 * and ComicRack .cbl read lists. Each either returns or fails with its documented error; none
 * throws anything else, hangs, or grows memory without bound (entity tricks included): each case's
 * peak stays under CASE_MEMORY_BOUND, and the whole run's growth is bounded too.
 */

const COMIC_INFO = comicInfoXml({ title: 'Seed', series: 'Fuzz', number: '1', summary: 'A & B <c>', year: 2020, writer: 'W', tags: 'a,b' });
const CONTAINER = `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;
const OPF = opfXml({
  metadata: '    <dc:title>Seed</dc:title>',
  manifest: [
    { id: 'img1', href: 'images/p1.png', mediaType: 'image/png', properties: 'cover-image' },
    { id: 'page1', href: 'pages/p1.xhtml', mediaType: 'application/xhtml+xml' },
  ],
  spine: ['page1'],
});
const SERIES_JSON = JSON.stringify({
  version: '1.0.2',
  metadata: { type: 'comicSeries', publisher: 'Image', name: 'Saga', comicid: 44585, year: 2012, description_text: 'Space.', description_formatted: null, volume: 2, age_rating: '17+', total_issues: 54, status: 'Continuing' },
});
/** JSON values of every type, for series.json fields where a tool wrote something else than Mylar. */
const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });
const CBL = `<?xml version="1.0"?><ReadingList><Name>Fuzz</Name><Books><Book Series="Alpha" Number="1" Volume="2020" Year="2020"/><Book Series="Beta" Number="2"/></Books></ReadingList>`;
/** Documents that try to make a parser expand or recurse without end. */
const NASTY = [
  `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "xxxxxxxxxx"><!ENTITY y "&x;&x;&x;&x;&x;&x;&x;&x;&x;&x;"><!ENTITY z "&y;&y;&y;&y;&y;&y;&y;&y;&y;&y;">]><ComicInfo><Title>&z;&z;&z;</Title></ComicInfo>`,
  `<ReadingList>${'<a>'.repeat(20_000)}`,
  `<ComicInfo>${'<Title>'.repeat(5_000)}x${'</Title>'.repeat(5_000)}</ComicInfo>`,
];

/** Damaged copies of a seed document and random text, as strings. */
const documents = (seed: string): fc.Arbitrary<string> =>
  fc.oneof(
    mutationsArbitrary.map((m) => mutate(Buffer.from(seed, 'utf8'), m).toString('utf8')),
    fc.string({ maxLength: 2_000 }),
    fc.constantFrom(...NASTY),
  );

function checkMemory(before: number): void {
  expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
}

describe('fuzzing the metadata parsers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('ComicInfo.xml: a patch, null, or MalformedComicInfoError', async () => {
    const before = process.memoryUsage().rss;
    await fc.assert(
      fc.asyncProperty(documents(COMIC_INFO), (xml) =>
        withinMemory(CASE_MEMORY_BOUND, 'ComicInfo case', () => {
          try {
            parseComicInfo(xml);
          } catch (error) {
            if (!(error instanceof MalformedComicInfoError)) throw error;
          }
        }),
      ),
      fuzzOptions(4),
    );
    checkMemory(before);
  }, fuzzTimeoutMs(4));

  it('EPUB container.xml and OPF: a result or an Error (the reader maps any to ERR_1008)', async () => {
    const before = process.memoryUsage().rss;
    await fc.assert(
      fc.asyncProperty(documents(CONTAINER), documents(OPF), (container, opf) =>
        withinMemory(CASE_MEMORY_BOUND, 'EPUB container/OPF case', () => {
          for (const parse of [() => parseContainer(container), () => parseOpf(opf, 'OEBPS/content.opf')]) {
            try {
              parse();
            } catch (error) {
              if (!(error instanceof Error)) throw error;
            }
          }
        }),
      ),
      fuzzOptions(4),
    );
    checkMemory(before);
  }, fuzzTimeoutMs(4));

  it('series.json: a Mylar document or null, and applied to series metadata without a throw', async () => {
    const meta = { title: 'T', titleSort: 'T', links: [] } as unknown as SeriesMetadata;
    const mylarFields = fc.dictionary(fc.constantFrom('name', 'publisher', 'description_text', 'description_formatted', 'status', 'age_rating', 'comicid', 'volume', 'total_issues'), anyJson);
    const texts = fc.oneof(documents(SERIES_JSON), mylarFields.map((metadata) => JSON.stringify({ metadata })));
    await fc.assert(
      fc.asyncProperty(texts, fc.boolean(), (text, appendVolume) =>
        withinMemory(CASE_MEMORY_BOUND, 'series.json case', () => {
          const parsed = parseMylarSeries(text);
          if (parsed) applyMylar(meta, parsed, appendVolume);
        }),
      ),
      fuzzOptions(4),
    );
  }, fuzzTimeoutMs(4));

  it('ComicRack .cbl: always a match result (an error code when unreadable), never a throw', async () => {
    const before = process.memoryUsage().rss;
    await fc.assert(
      fc.asyncProperty(documents(CBL), async (xml) => {
        await withinMemory(CASE_MEMORY_BOUND, '.cbl case', async () => {
          const list = await readComicRackList(Buffer.from(xml, 'utf8'), 'fuzz.cbl');
          const result = matchComicRackList(server.app.folio, list, () => true);
          expect(result).toBeTypeOf('object');
        });
      }),
      fuzzOptions(4),
    );
    checkMemory(before);
  }, fuzzTimeoutMs(4));
});
