import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { Page } from '../../src/api/types.ts';
import { MAX_SIZE, type Paging, toPage } from './paging.ts';

/** DTOs built in one turn of the event loop: ~200 × 40 µs keeps a turn under ~10 ms. */
const CHUNK = 200;

/**
 * A page of DTOs built from ids. Up to a paged request's largest size (2,000) it is built at once
 * and sent from memory (with its ETag). Past that, only `unpaged=true` asks (any reader may: Komga's
 * web client does): 50,000 books were 2.3 s of one turn to build, then a 56 MB string to hash and
 * send, while every other client waited. Such answers are written as a stream, CHUNK DTOs per turn
 * and only as fast as the client reads, so the thread is held ~10 ms at a time and memory stays
 * bounded by the socket's backlog. A row gone between the id query and its chunk is left out, as
 * the in-memory path does; numberOfElements comes last so it counts what was sent.
 */
export function chunkedPage<T>(
  reply: FastifyReply,
  ids: string[],
  build: (id: string) => T | undefined,
  total: number,
  paging: Paging,
  sorted: boolean,
): Page<T> | Readable {
  if (ids.length <= MAX_SIZE) return toPage(ids.flatMap((id) => build(id) ?? []), total, paging, sorted);
  reply.type('application/json; charset=utf-8');
  return Readable.from(streamPage(ids, build, total, paging, sorted), { objectMode: false });
}

async function* streamPage<T>(ids: string[], build: (id: string) => T | undefined, total: number, paging: Paging, sorted: boolean): AsyncGenerator<string> {
  yield '{"content":[';
  let sent = 0;
  for (let start = 0; start < ids.length; start += CHUNK) {
    if (start > 0) await nextTurn();
    const parts: string[] = [];
    for (const id of ids.slice(start, start + CHUNK)) {
      const dto = build(id);
      if (dto !== undefined) parts.push(JSON.stringify(dto));
    }
    if (parts.length === 0) continue;
    yield (sent > 0 ? ',' : '') + parts.join(',');
    sent += parts.length;
  }
  const { content: _content, ...rest } = toPage<T>([], total, paging, sorted);
  yield `],${JSON.stringify({ ...rest, numberOfElements: sent, empty: sent === 0 }).slice(1)}`;
}

/**
 * A JSON array whose chunks are each produced on their own turn of the event loop and written as
 * fast as the client reads: for lists whose size the caller does not choose (a book's 50,000 page
 * entries were 220–380 ms of one turn, then a 6.7 MB string hashed for its ETag).
 */
export function chunkedArray(reply: FastifyReply, chunks: Iterable<unknown[]>): Readable {
  reply.type('application/json; charset=utf-8');
  return Readable.from(arrayText(chunks), { objectMode: false });
}

async function* arrayText(chunks: Iterable<unknown[]>): AsyncGenerator<string> {
  yield '[';
  let sent = 0;
  let turnTaken = false;
  const iterator = chunks[Symbol.iterator]();
  for (;;) {
    // The next chunk is read on a turn of its own.
    if (turnTaken) await nextTurn();
    turnTaken = true;
    const next = iterator.next();
    if (next.done) break;
    if (next.value.length === 0) continue;
    yield (sent > 0 ? ',' : '') + next.value.map((item) => JSON.stringify(item)).join(',');
    sent += next.value.length;
  }
  yield ']';
}

/** Each chunk mapped when it is read. */
export function* mapChunks<T, U>(chunks: Iterable<T[]>, map: (item: T) => U): Generator<U[]> {
  for (const chunk of chunks) yield chunk.map(map);
}

/**
 * `{...fields, [name]: [chunks…]}`, typed `type`, its array written as chunkedArray writes one: for
 * objects around a list the caller does not bound (an EPUB's positions: 391,000 of them were a
 * 91 MB string made in 3.7 s of one turn while no other request was answered).
 */
export function chunkedArrayIn(reply: FastifyReply, type: string, fields: Record<string, unknown>, name: string, chunks: Iterable<unknown[]>): Readable {
  reply.type(type);
  const head = `${JSON.stringify({ ...fields, [name]: [] }).slice(0, -3)}`;
  return Readable.from(inObject(head, arrayText(chunks)), { objectMode: false });
}

async function* inObject(head: string, array: AsyncGenerator<string>): AsyncGenerator<string> {
  yield head;
  yield* array;
  yield '}';
}

/** The items in chunks of `size`, each read from the iterable only when its chunk is asked for. */
export function* chunksOf<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Items of an array field written per turn by chunkedObject (links: a few µs each). */
const FIELD_CHUNK = 1000;

/**
 * An object as JSON.stringify writes it, typed `type`, whose long array fields are written
 * FIELD_CHUNK items per turn as chunkedArray writes them: a Readium manifest's reading order has
 * one link per page or spine document (an EPUB's package may list 20,000), and the whole manifest
 * stringified at once was 60 ms of one turn idle, 230 ms at load 9, for every reader opening it.
 * Without such a field the object is sent at once (string), with its ETag.
 */
export function chunkedObject(reply: FastifyReply, type: string, value: object): string | Readable {
  reply.type(type);
  // Short ones are sent from memory, with their ETag (as chunkedPage keeps a page's).
  if (!Object.values(value).some((field) => Array.isArray(field) && field.length > FIELD_CHUNK)) return JSON.stringify(value);
  return Readable.from(objectText(value), { objectMode: false });
}

async function* objectText(value: object): AsyncGenerator<string> {
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    // As JSON.stringify: fields without a JSON value are left out.
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    yield `${first ? '{' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (Array.isArray(field) && field.length > FIELD_CHUNK) yield* arrayText(chunksOf(field as unknown[], FIELD_CHUNK));
    else yield JSON.stringify(field);
  }
  yield first ? '{}' : '}';
}
