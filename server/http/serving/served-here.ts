import type { IncomingMessage } from 'node:http';

/**
 * The requests a serving process answers itself (README "Serving processes"): the reads every
 * reader makes most, page bytes and book posters, at Komga's REST and OPDS addresses. Anything
 * else, and these with anything that draws (`convert`, the small OPDS poster), goes to the primary
 * before Fastify sees it. Decided on the raw request: a path this does not recognise exactly (an
 * escape, another segment) is forwarded, and the primary answers it as it always would.
 */
const PAGE = /^\/(?:api\/v1|opds\/v1\.2|opds\/v2)\/books\/[^/]+\/pages\/[^/]+$/;
const POSTER = /^\/(?:api\/v1|opds\/v1\.2|opds\/v2)\/books\/[^/]+\/thumbnail$/;

export function servedHere(basePath: string): (request: IncomingMessage) => boolean {
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    let url = request.url ?? '/';
    if (basePath !== '') {
      if (!url.startsWith(`${basePath}/`)) return false;
      url = url.slice(basePath.length);
    }
    const question = url.indexOf('?');
    const path = question < 0 ? url : url.slice(0, question);
    if (POSTER.test(path)) return true;
    if (!PAGE.test(path)) return false;
    // A conversion decodes and encodes: the primary's decode budget does it. Query names match in
    // any case and may be escaped (schemas.ts), so they are read as the route would read them.
    if (question < 0) return true;
    for (const name of new URLSearchParams(url.slice(question + 1)).keys()) {
      if (name.toLowerCase() === 'convert') return false;
    }
    return true;
  };
}
