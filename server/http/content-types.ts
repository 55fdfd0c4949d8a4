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
 *   that do (they declare a body schema); multipart routes register their own parser in scope.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  // Fastify's own JSON parser (secure-json-parse), which has the callback form.
  const parseJson = app.getDefaultJsonParser('error', 'error') as JsonParser;
  app.removeAllContentTypeParsers();
  for (const type of JSON_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      parseJson(request, text, done);
    });
  }
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if (body.length === 0 || !readsBody(request)) return done(null, undefined);
    done(new HttpError(415, `Content-Type '${request.headers['content-type'] ?? ''}' is not supported`), undefined);
  });
}

function readsBody(request: FastifyRequest): boolean {
  return request.routeOptions.schema?.body !== undefined;
}
