/**
 * `node bench/big-library.ts`: every listing a client asks for, timed on a big library. The rows are
 * written straight into a fresh data dir through the repositories (no files: scanning 50,000 CBZs
 * takes longer than the whole run; the serving paths read the same rows a scan writes): 5,000
 * series × 10 books in one library plus 500 × 10 in a second, one book of 50,000 pages, sharing
 * labels and age ratings, and a small library of 20 × 10 books, older than all the others; then over
 * HTTP a restricted reader (one library, age ≤ 12, label "adult" excluded), a reader shared only the
 * small library ("share": one small library among many), progress for the first two, 50
 * collections and 20 read lists.
 *
 * Each route is asked RUNS times as admin, as the reader and as "share", one request at a time. Beside it a
 * probe process asks a cheap route again and again: its worst latency during a route is how long
 * that route held the server's thread from everybody else. BENCH_ONLY=regex limits the routes;
 * BENCH_JSON=path writes the figures; BENCH_KEEP=1 keeps the data dir. Other work on the machine moves these figures: compare
 * builds in the same run.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/database.ts';
import { createRepositories } from '../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../server/db/book-metadata-repository.ts';
import { newId } from '../server/db/ids.ts';
import { AdminClient, startServer } from './support/folio.ts';
import { percentile, round } from './lib/stats.ts';

const REPO = process.env.BENCH_REPO ?? join(import.meta.dirname, '..');
const SERIES = Number(process.env.BENCH_SERIES ?? 5_000);
const BOOKS_PER_SERIES = 10;
const BIG_BOOK_PAGES = 50_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const ADMIN = { email: 'bench@example.org', password: 'bench-password' };
const READER = { email: 'reader@example.org', password: 'reader-password' };
const SHARE = { email: 'share@example.org', password: 'share-password' };
const SMALL_SERIES = 20;
const WORDS = ['dragon', 'night', 'shadow', 'river', 'blade', 'garden', 'winter', 'empire', 'moon', 'ghost', 'saga', 'hero', 'city', 'storm', 'queen'];
const word = (i: number) => WORDS[i % WORDS.length]!;

interface Generated { bigLibrary: string; otherLibrary: string; smallLibrary: string; seriesIds: string[]; bookIds: string[]; bigBook: string }

function generate(dataDir: string): Generated {
  const db = openDatabase(dataDir);
  const repos = createRepositories(db);
  const now = Date.now();
  const out: Generated = { bigLibrary: newId(now), otherLibrary: newId(now), smallLibrary: newId(now), seriesIds: [], bookIds: [], bigBook: '' };
  const library = db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)');
  library.run(out.bigLibrary, 'Big', join(dataDir, 'big'), now, now);
  library.run(out.otherLibrary, 'Other', join(dataDir, 'other'), now, now);
  library.run(out.smallLibrary, 'Small', join(dataDir, 'small'), now, now);
  repos.inTransaction(() => {
    const total = SERIES + SERIES / 10;
    // The small library's books are the oldest: lists in date order meet them last.
    for (let s = 0; s < SMALL_SERIES; s++) {
      const seriesId = newId(now);
      const created = now - (total + SMALL_SERIES - s) * 60_000;
      const title = `small ${word(s)} ${s}`;
      repos.series.insert({ id: seriesId, libraryId: out.smallLibrary, name: title, url: `/small/${s}`, fileLastModified: created, oneshot: false, deletedDate: null, created, lastModified: created });
      repos.seriesMetadata.insert({ ...defaultSeriesMetadata(seriesId, title, created), ageRating: s % 3 === 0 ? null : 12, sharingLabels: s % 5 === 0 ? ['adult'] : [] });
      for (let b = 1; b <= BOOKS_PER_SERIES; b++) {
        const bookId = newId(now);
        repos.books.insert({ id: bookId, seriesId, libraryId: out.smallLibrary, name: `${title} v${b}`, url: `/small/${s}/${b}.cbz`, number: b, fileLastModified: created, fileSize: 1000, fileHash: '', oneshot: false, deletedDate: null, created: created + b, lastModified: created + b });
        repos.bookMetadata.insert({ ...defaultBookMetadata(bookId, `Volume ${b}`, b, created), tags: [word(b)] });
        repos.media.insert({ bookId, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 20, epubDivinaCompatible: false, epubIsKepub: false, created, lastModified: created });
      }
    }
    for (let s = 0; s < total; s++) {
      const libraryId = s < SERIES ? out.bigLibrary : out.otherLibrary;
      const seriesId = newId(now);
      const created = now - (total - s) * 60_000;
      const title = `${word(s)} ${word(s * 7 + 3)} ${s}`;
      out.seriesIds.push(seriesId);
      repos.series.insert({ id: seriesId, libraryId, name: title, url: `/big/${s}`, fileLastModified: created, oneshot: false, deletedDate: null, created, lastModified: created });
      repos.seriesMetadata.insert({
        ...defaultSeriesMetadata(seriesId, title, created),
        publisher: `Publisher ${s % 40}`,
        tags: [word(s + 1), `tag ${s % 200}`],
        genres: [word(s + 2), `genre ${s % 30}`],
        ageRating: s % 4 === 0 ? null : [6, 12, 16, 18][s % 4]!,
        sharingLabels: s % 5 === 0 ? ['adult'] : s % 7 === 0 ? ['kids'] : [],
        status: s % 3 === 0 ? 'ENDED' : 'ONGOING',
      });
      const authors = [{ name: `Author ${s % 1_000}`, role: 'writer' }, { name: `Penciller ${s % 600}`, role: 'penciller' }];
      repos.seriesBooksMetadata.upsert({ seriesId, authors, tags: [`booktag ${s % 40}`], releaseDate: null, summary: '', summaryNumber: '', created, lastModified: created });
      for (let b = 1; b <= BOOKS_PER_SERIES; b++) {
        const bookId = newId(now);
        out.bookIds.push(bookId);
        repos.books.insert({ id: bookId, seriesId, libraryId, name: `${title} v${b}`, url: `/big/${s}/${b}.cbz`, number: b, fileLastModified: created, fileSize: 1000, fileHash: '', oneshot: false, deletedDate: null, created: created + b, lastModified: created + b });
        repos.bookMetadata.insert({ ...defaultBookMetadata(bookId, `Volume ${b}`, b, created), authors, tags: [word(b)], releaseDate: `${1980 + (s % 40)}-01-0${1 + (b % 9)}` });
        repos.media.insert({ bookId, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 20, epubDivinaCompatible: false, epubIsKepub: false, created, lastModified: created });
      }
    }
  });
  // One book of 50,000 pages (a long webtoon): its page list is what /books/{id}/pages answers.
  out.bigBook = out.bookIds[10]!;
  const media = repos.media.findByBookId(out.bigBook)!;
  repos.media.replaceAnalysis(
    { ...media, pageCount: BIG_BOOK_PAGES },
    Array.from({ length: BIG_BOOK_PAGES }, (_, i) => ({ number: i + 1, fileName: `page-${String(i + 1).padStart(5, '0')}.jpg`, mediaType: 'image/jpeg', width: 800, height: 1200, fileSize: 150_000 })),
    [],
  );
  db.close();
  return out;
}

async function populate(admin: AdminClient, reader: AdminClient, g: Generated): Promise<void> {
  await admin.call('POST', '/api/v2/users', {
    email: READER.email, password: READER.password, roles: ['PAGE_STREAMING', 'FILE_DOWNLOAD'],
    sharedLibraries: { all: false, libraryIds: [g.bigLibrary] }, labelsExclude: ['adult'], ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
  });
  await admin.call('POST', '/api/v2/users', {
    email: SHARE.email, password: SHARE.password, roles: ['PAGE_STREAMING'], sharedLibraries: { all: false, libraryIds: [g.smallLibrary] },
  });
  // Progress: 200 books read to the end and 100 part-read, spread over the library, for each user.
  const jobs: Promise<unknown>[] = [];
  for (let i = 0; i < 300; i++) {
    const book = g.bookIds[(i * 163) % (SERIES * BOOKS_PER_SERIES)]!;
    const body = i < 200 ? { completed: true } : { page: 5, completed: false };
    for (const client of [admin, reader]) jobs.push(client.call('PATCH', `/api/v1/books/${book}/read-progress`, body, {}).catch((error: Error) => error));
    if (jobs.length >= 32) await Promise.all(jobs.splice(0));
  }
  await Promise.all(jobs);
  for (let c = 0; c < 50; c++) {
    await admin.call('POST', '/api/v1/collections', { name: `Collection ${c} ${word(c)}`, ordered: false, seriesIds: Array.from({ length: 100 }, (_, i) => g.seriesIds[(c * 97 + i * 41) % SERIES]!) });
  }
  for (let r = 0; r < 20; r++) {
    await admin.call('POST', '/api/v1/readlists', { name: `Read list ${r} ${word(r)}`, summary: '', ordered: true, bookIds: Array.from({ length: 200 }, (_, i) => g.bookIds[(r * 331 + i * 53) % (SERIES * BOOKS_PER_SERIES)]!) });
  }
}

function routes(g: Generated, firstCollection: string, firstReadList: string): [string, string, string, unknown?][] {
  const lib = g.bigLibrary;
  const series = g.seriesIds[1]!; // no label, age 12: both users see it
  const condition = { condition: { allOf: [{ libraryId: { operator: 'is', value: lib } }, { readStatus: { operator: 'isNot', value: 'READ' } }] } };
  const rows: [string, string, string, unknown?][] = [
    ['dashboard keep reading', 'GET', `/api/v1/books?sort=readProgress.readDate,desc&read_status=IN_PROGRESS&page=0&size=20&library_id=${lib}`],
    ['dashboard on deck', 'GET', `/api/v1/books/ondeck?page=0&size=20&library_id=${lib}`],
    ['dashboard recently added books', 'GET', `/api/v1/books/latest?page=0&size=20&library_id=${lib}`],
    ['dashboard recently added series', 'GET', `/api/v1/series/new?page=0&size=20&library_id=${lib}`],
    ['dashboard recently updated series', 'GET', `/api/v1/series/updated?page=0&size=20&library_id=${lib}`],
    ['dashboard recently read books', 'GET', `/api/v1/books?sort=readProgress.readDate,desc&read_status=READ&page=0&size=20&library_id=${lib}`],
    // The same lists over every library the caller may see (no library_id), as the dashboard of a
    // reader shared one library asks them.
    ['recently added books, all libraries', 'GET', '/api/v1/books/latest?page=0&size=20'],
    ['recently added series, all libraries', 'GET', '/api/v1/series/new?page=0&size=20'],
    ['books list, all libraries', 'GET', '/api/v1/books?page=0&size=20'],
    ['series list by title', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&sort=metadata.titleSort,asc`],
    ['series list by title page 200', 'GET', `/api/v1/series?library_id=${lib}&page=200&size=20&sort=metadata.titleSort,asc`],
    ['series list by created', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&sort=createdDate,desc`],
    ['series list by lastModified', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&sort=lastModifiedDate,desc`],
    ['series list by release date', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&sort=booksMetadata.releaseDate,desc`],
    ['series list by folder name', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&sort=name,asc`],
    ['series list by books count', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&sort=booksCount,desc`],
    ['series list by random', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&sort=random`],
    ['series list filter status+genre', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&status=ENDED&genre=dragon`],
    ['series list filter read status', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&read_status=UNREAD`],
    ['series list filter publisher+tag', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&publisher=Publisher%203&tag=tag%2010`],
    ['series list filter author', 'GET', `/api/v1/series?library_id=${lib}&page=0&size=20&author=Author%2042,writer`],
    ['series alphabetical groups', 'GET', `/api/v1/series/alphabetical-groups?library_id=${lib}`],
    ['series list POST condition', 'POST', '/api/v1/series/list?page=0&size=20&sort=metadata.titleSort,asc', condition],
    ['books list POST condition', 'POST', '/api/v1/books/list?page=0&size=20&sort=metadata.numberSort,asc', condition],
    ['books list POST title sort page 500', 'POST', '/api/v1/books/list?page=500&size=20&sort=metadata.title,asc', condition],
    ['series search', 'GET', '/api/v1/series?search=shadow&page=0&size=20'],
    ['books search', 'GET', '/api/v1/books?search=shadow%20river&page=0&size=20'],
    ['collections search', 'GET', '/api/v1/collections?search=dragon&page=0&size=20'],
    ['collections list', 'GET', '/api/v1/collections?page=0&size=20'],
    ['collection series', 'GET', `/api/v1/collections/${firstCollection}/series?page=0&size=20`],
    ['read lists list', 'GET', '/api/v1/readlists?page=0&size=20'],
    ['read list books', 'GET', `/api/v1/readlists/${firstReadList}/books?page=0&size=20`],
    ['series unpaged', 'GET', '/api/v1/series?unpaged=true'],
    ['books unpaged', 'GET', '/api/v1/books?unpaged=true'],
    ['series books unpaged', 'GET', `/api/v1/series/${series}/books?unpaged=true`],
    ['authors', 'GET', '/api/v1/authors?page=0&size=20'],
    ['authors unpaged v2', 'GET', '/api/v2/authors?unpaged=true'],
    ['authors names search', 'GET', '/api/v1/authors/names?search=auth'],
    ['genres', 'GET', '/api/v1/genres'],
    ['tags', 'GET', '/api/v1/tags'],
    ['tags series', 'GET', '/api/v1/tags/series'],
    ['tags book', 'GET', '/api/v1/tags/book'],
    ['publishers', 'GET', '/api/v1/publishers'],
    ['age ratings', 'GET', '/api/v1/age-ratings'],
    ['release dates', 'GET', '/api/v1/series/release-dates'],
    ['languages', 'GET', '/api/v1/languages'],
    ['sharing labels', 'GET', '/api/v1/sharing-labels'],
    ['opds catalog', 'GET', '/opds/v1.2/catalog'],
    ['opds series', 'GET', '/opds/v1.2/series'],
    ['opds library', 'GET', `/opds/v1.2/libraries/${lib}`],
    ['opds keep reading', 'GET', '/opds/v1.2/keep-reading'],
    ['opds on deck', 'GET', '/opds/v1.2/ondeck'],
    ['opds latest books', 'GET', '/opds/v1.2/books/latest'],
    ['opds publishers', 'GET', '/opds/v1.2/publishers'],
    ['opds search', 'GET', '/opds/v1.2/search?q=shadow'],
    ['opds2 catalog', 'GET', '/opds/v2/catalog'],
    ['opds2 library browse', 'GET', `/opds/v2/libraries/${lib}/browse`],
    ['opds2 latest series', 'GET', '/opds/v2/libraries/series/latest'],
    ['book pages 50,000', 'GET', `/api/v1/books/${g.bigBook}/pages`],
    ['series thumbnail', 'GET', `/api/v1/series/${series}/thumbnail`],
    ['tachiyomi series progress v2', 'GET', `/api/v2/series/${series}/read-progress/tachiyomi`],
    ['tachiyomi read list progress', 'GET', `/api/v1/readlists/${firstReadList}/read-progress/tachiyomi`],
    ['series books page', 'GET', `/api/v1/series/${series}/books?page=0&size=20&sort=metadata.numberSort,asc`],
    ['book next', 'GET', `/api/v1/books/${g.bookIds[15]}/next`],
  ];
  return ONLY ? rows.filter(([name]) => ONLY.test(name)) : rows;
}

type Probe = { measure(): Promise<number[]>; start(): void; exit(): void };
function startProbe(url: string, email: string, password: string): Probe {
  const child = fork(join(import.meta.dirname, 'lib/cheap-request-probe.ts'), [url, `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`]);
  return {
    start: () => child.send('start'),
    measure: () => new Promise((resolve) => { child.once('message', (m: { latencies: number[] }) => resolve(m.latencies)); child.send('stop'); }),
    exit: () => child.send('exit'),
  };
}

async function timeOne(client: AdminClient, method: string, path: string, body: unknown): Promise<{ ms: number; bytes: number; status: number }> {
  const start = performance.now();
  const response = await fetch(`${client.url}${path}`, {
    method,
    headers: { Authorization: (client as unknown as { authHeader: string }).authHeader, 'X-Requested-With': 'XMLHttpRequest', ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { ms: performance.now() - start, bytes, status: response.status };
}

const work = await mkdtemp(join(tmpdir(), 'folio-bench-biglib-'));
try {
  const dataDir = join(work, 'data');
  let started = performance.now();
  const g = generate(dataDir);
  console.log(`generated ${g.seriesIds.length} series / ${g.bookIds.length} books in ${round((performance.now() - started) / 1000, 1)} s`);
  started = performance.now();
  const server = await startServer(REPO, dataDir, join(work, 'no-client'));
  console.log(`server (${REPO}) started in ${round((performance.now() - started) / 1000, 1)} s`);
  const admin = new AdminClient(server.url, ADMIN.email, ADMIN.password);
  await admin.claim(ADMIN.email, ADMIN.password);
  // After the claim: failed sign-ins before it would throttle the account.
  const probe = startProbe(`${server.url}/api/v1/libraries`, ADMIN.email, ADMIN.password);
  try {
    const reader = new AdminClient(server.url, READER.email, READER.password);
    const share = new AdminClient(server.url, SHARE.email, SHARE.password);
    for (const [c, who] of [[admin, ADMIN], [reader, READER], [share, SHARE]] as const) (c as unknown as { authHeader: string }).authHeader = `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`;
    started = performance.now();
    await populate(admin, reader, g);
    console.log(`populated in ${round((performance.now() - started) / 1000, 1)} s`);
    const collections = await admin.call<{ content: { id: string }[] }>('GET', '/api/v1/collections?size=1');
    const readLists = await admin.call<{ content: { id: string }[] }>('GET', '/api/v1/readlists?size=1');
    const results: Record<string, unknown>[] = [];
    console.log('| route | user | status | bytes | p50 ms | max ms | probe max ms |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const [name, method, path, body] of routes(g, collections.content[0]!.id, readLists.content[0]!.id)) {
      for (const [who, client] of [['admin', admin], ['reader', reader], ['share', share]] as const) {
        await timeOne(client, method, path, body); // warm-up: statement cache, search-text rebuild
        probe.start();
        const samples: number[] = [];
        let last = { ms: 0, bytes: 0, status: 0 };
        for (let i = 0; i < RUNS; i++) { last = await timeOne(client, method, path, body); samples.push(last.ms); }
        const stall = Math.max(0, ...(await probe.measure()));
        const row = { name, who, status: last.status, bytes: last.bytes, p50: round(percentile(samples, 50), 1), max: round(Math.max(...samples), 1), probeMax: round(stall, 1) };
        results.push(row);
        console.log(`| ${name} | ${who} | ${row.status} | ${row.bytes} | ${row.p50} | ${row.max} | ${row.probeMax} |`);
      }
    }
    if (process.env.BENCH_JSON) await writeFile(process.env.BENCH_JSON, JSON.stringify({ load: loadavg(), results }, null, 1));
  } finally {
    probe.exit();
    await server.stop();
  }
  console.log(`loadavg ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
} finally {
  // BENCH_KEEP=1 leaves the data dir for EXPLAIN QUERY PLAN sessions.
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${work}`);
  else await rm(work, { recursive: true, force: true });
}
