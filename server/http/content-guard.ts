import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FolioContext } from '../domain/context.ts';
import { canSeeSeries, hasContentRestrictions } from '../domain/content-restrictions.ts';
import { notFound } from './errors.ts';

/**
 * One guard for every route about a single series or book, in every route family — REST
 * (`/api/v1|v2/series/:id/...`, `/api/v1/books/:id/...`, Tachiyomi and Readium included) and OPDS
 * (`/opds/v1.2|v2/series/:id`, `.../books/:id`), present and future: a series or book hidden from the caller by shared
 * libraries, age rating or labels answers 404, exactly like an unknown id, so its existence does
 * not leak. Lists apply the same rules in SQL (content-restrictions.ts).
 */
const ITEM_ROUTE = /^\/(?:api\/v[12]|opds\/v1\.2|opds\/v2)\/(series|books)\/:([A-Za-z_]+)(?:\/|$)/;

export function registerContentGuard(app: FastifyInstance, ctx: FolioContext): void {
  app.addHook('preHandler', (request: FastifyRequest, _reply, done) => {
    if (!isVisible(ctx, request)) throw notFound();
    done();
  });
}

/** False when the request names a series or book its caller may not see. */
function isVisible(ctx: FolioContext, request: FastifyRequest): boolean {
  const user = request.user;
  if (!user || (user.sharedAllLibraries && !hasContentRestrictions(user))) return true;
  const match = ITEM_ROUTE.exec(request.routeOptions.url ?? '');
  if (!match) return true;
  const id = (request.params as Record<string, string | undefined>)[match[2] ?? ''];
  if (!id) return true;
  // A book's answer is remembered until a write may change it (serving-lookups.ts): pages and
  // posters of a restricted reader ask it on every request.
  return match[1] === 'series' ? canSeeSeries(ctx.repos, user, id) : ctx.repos.served.bookVisible(id, user);
}
