import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Book } from '../db/book-repository.ts';
import type { FolioContext } from '../domain/context.ts';
import { openRawPage } from '../domain/pages/raw-pages.ts';
import type { MediaWork } from '../media/work-callers.ts';
import type { PageRenderOptions } from '../domain/pages/rendered-pages.ts';
import { badRequest } from './errors.ts';
import { inlineDisposition } from './file-download.ts';
import { type RawQuery, stringParam } from './query-params.ts';

/* What the page routes (pages/{n} and pages/{n}/raw) share: size hints, PDF negotiation, raw pages. */

/**
 * Optional `width` / `height` query hints for pages that are drawn (PDF): the image is drawn to fit
 * inside them. Ignored for stored images, which are always served as they are.
 */
export function sizeHint(query: RawQuery): Pick<PageRenderOptions, 'maxWidth' | 'maxHeight'> {
  const read = (name: string) => {
    const value = stringParam(query, name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw badRequest(`Invalid ${name}: ${value}`);
    return n;
  };
  return { maxWidth: read('width'), maxHeight: read('height') };
}

/** Quality of a media range in an Accept header (0 when absent). */
function quality(accept: string, matches: (type: string) => boolean): number {
  let best = 0;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!matches(type)) continue;
    const q = params.find((p) => p.startsWith('q='));
    best = Math.max(best, q ? Number(q.slice(2)) || 0 : 1);
  }
  return best;
}

/** Komga's negotiation for PDF pages: a raw one-page PDF when `application/pdf` outranks images. */
export function prefersPdf(accept: string | undefined): boolean {
  if (!accept) return false;
  const pdf = quality(accept, (t) => t === 'application/pdf');
  const image = quality(accept, (t) => t.startsWith('image/') || t === '*/*');
  return pdf > 0 && pdf > image;
}

/** The page as stored: a one-page PDF for PDF books, the entry's own bytes otherwise. */
export async function sendRawPage(ctx: FolioContext, reply: FastifyReply, book: Book, number: number, work: MediaWork): Promise<FastifyReply> {
  const raw = await openRawPage(ctx, book, number, work);
  if (!raw) throw badRequest('Page number does not exist');
  reply.header('Content-Disposition', inlineDisposition(`${book.name}-${number}${raw.extension}`));
  if (raw.size !== null) reply.header('Content-Length', raw.size);
  return reply.type(raw.mediaType).send(raw.body);
}

/**
 * Calls `release` once the response has closed (sent, failed, or its client gone), or at once if
 * it already has: bytes held for a response stay counted until nothing will send them any more,
 * and a client that left while they were made does not keep them counted for ever.
 */
export function releaseOnClose(response: ServerResponse, release: () => void): void {
  if (response.closed) release();
  else response.once('close', release);
}
