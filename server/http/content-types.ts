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
      if (nestedTooDeep(text)) return done(new HttpError(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
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
 * Whether the JSON text opens more than MAX_JSON_DEPTH arrays or objects inside each other,
 * brackets in strings not counted. Checked before parsing: JSON.parse spends over a second of the
 * main thread on 4 MB of nested brackets (ten times a flat body of the same size), which any
 * signed-in user could send again and again. Stops at the first level too many, so such a body
 * costs next to nothing; an ordinary one costs one pass over its characters.
 */
function nestedTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
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
