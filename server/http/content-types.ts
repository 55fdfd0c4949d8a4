import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/** Jackson reads application/json and every application/*+json type (Readium progression, …). */
const JSON_TYPES = ['application/json', /^application\/[^\s;/]+\+json\s*(;|$)/i] as const;

type JsonParser = (request: FastifyRequest, body: string, done: (error: Error | null, body?: unknown) => void) => void;

/**
 * One request-body policy for the whole app, as lenient as Spring's:
 * - an empty body is no body, whatever Content-Type says (axios sends `post(url, null)` as an empty
 *   form post; scripts send `Content-Type: application/json` on every call);
 * - JSON (and +json) bodies are parsed with Fastify's guarded parser (prototype poisoning refused);
 * - any other content type is ignored on routes that read no body, and refused with 415 on routes
 *   that do (they declare a body schema); multipart routes register their own parser in scope;
 * - a request without an identified caller carries at most ANONYMOUS_BODY_LIMIT bytes.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  registerAnonymousBodyLimit(app);
  // Fastify's own JSON parser (secure-json-parse), which has the callback form.
  const parseJson = app.getDefaultJsonParser('error', 'error') as JsonParser;
  app.removeAllContentTypeParsers();
  for (const type of JSON_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      const refusal = refusedJsonShape(text);
      if (refusal) return done(new HttpError(400, refusal), undefined);
      parseJson(request, text, done);
    });
  }
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if (body.length === 0 || !readsBody(request)) return done(null, undefined);
    done(new HttpError(415, `Content-Type '${request.headers['content-type'] ?? ''}' is not supported`), undefined);
  });
}

/** Jackson's default nesting limit (StreamReadConstraints): Komga refuses deeper bodies with 400 too. */
export const MAX_JSON_DEPTH = 1000;

/**
 * Members (`"key": value`) a JSON body may hold in all its objects together. JSON.parse's cost grows
 * faster than the number of distinct keys it meets: 100,000 take about 50 ms of the main thread,
 * 700,000 (8 MB, well within the body limit) took 3 s and, with the request's checks, 5-8 s for any
 * signed-in user, again and again. The largest real body, a bulk metadata edit of thousands of
 * books, stays far below; client settings hold at most 200 keys.
 */
export const MAX_JSON_MEMBERS = 100_000;

/**
 * Why a JSON text is refused before it is parsed, if it is: more than MAX_JSON_DEPTH arrays or
 * objects inside each other (JSON.parse spent over a second on 4 MB of nested brackets, ten times a
 * flat body of the same size), or more than MAX_JSON_MEMBERS members. Brackets and colons inside
 * strings do not count. Stops at the first one too many, so such a body costs next to nothing; an
 * ordinary one costs one pass over its characters.
 */
function refusedJsonShape(text: string): string | undefined {
  let depth = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (c === 0x3a) {
      // Outside a string a colon only ever ends an object member's key.
      if (++members > MAX_JSON_MEMBERS) return `JSON holding more than ${MAX_JSON_MEMBERS} members`;
    }
  }
  return undefined;
}

/**
 * Bytes of body a request may carry when no caller was identified: anonymous routes (the claim,
 * logout) read none, and neither does the web client's fallback. Without this bound anyone could
 * make the server read and parse 10 MiB of JSON per request (about a third of a second of the main
 * thread each), on any path, before a 400 or 404.
 */
export const ANONYMOUS_BODY_LIMIT = 4 * 1024;

/**
 * Refuses (413) an anonymous request's body before a byte of it is read: one declaring more than
 * ANONYMOUS_BODY_LIMIT, or one sent in chunks without a declared length (which no Komga client
 * sends without credentials). Runs after the auth hook (preParsing follows every onRequest hook).
 */
function registerAnonymousBodyLimit(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.user) return done(null, payload);
    const declared = Number(request.headers['content-length'] ?? 0);
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (chunked || declared > ANONYMOUS_BODY_LIMIT) {
      return done(new HttpError(413, `A request without credentials may carry at most ${ANONYMOUS_BODY_LIMIT} bytes of body`), payload);
    }
    done(null, payload);
  });
}

function readsBody(request: FastifyRequest): boolean {
  return request.routeOptions.schema?.body !== undefined;
}
