import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestPath } from './request-path.ts';

const ETAG_PREFIXES = ['/api/', '/opds/'];

/**
 * Komga's shallow ETag (REFERENCE §0): every successful GET under /api or /opds whose body is in
 * memory gets `ETag: "0<md5>"`; a matching If-None-Match turns the answer into a bodiless 304.
 * Streamed bodies (page bytes, thumbnails from disk) and bodies whose route set an ETag are left alone.
 */
export function shallowEtag(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (request.method !== 'GET' || reply.statusCode < 200 || reply.statusCode >= 300) return payload;
  const path = requestPath(request);
  if (!ETAG_PREFIXES.some((p) => path.startsWith(p)) || path.endsWith('/file')) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  // A route that named its content itself (posters from memory, pages) keeps its ETag: hashing the
  // body again would only cost time on every request.
  if (reply.hasHeader('etag')) return payload;
  const etag = `"0${createHash('md5').update(payload).digest('hex')}"`;
  reply.header('ETag', etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && matches(ifNoneMatch, etag)) {
    reply.code(304);
    reply.removeHeader('content-length');
    reply.removeHeader('content-type');
    return '';
  }
  return payload;
}

function matches(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}
