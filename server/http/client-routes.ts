import { statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { sendError } from './errors.ts';
import { publicPrefix } from './base-path.ts';
import { ClientIndex } from './client-index.ts';
import { withBodyTags, withHeadTags } from './client-page.ts';
import { readerHints } from './reader-hints.ts';
import { RouteMethods } from './method-not-allowed.ts';
import { isUnusablePath, rethrowUnless } from '../fs-errors.ts';
import type { FolioContext } from '../domain/context.ts';

const API_PREFIXES = ['/api/', '/sse/', '/opds/', '/actuator/'];

/**
 * Serves the built web client from `clientDir` with history-mode fallback: a GET for any other
 * unknown path gets index.html so client-side routes survive a reload. Unknown API paths (including
 * Spring's /actuator) get a JSON 404 instead, or Spring's 405 with Allow (OPTIONS: 200) when the
 * path is routed for other methods. Files are resolved strictly inside clientDir.
 */
export async function registerClient(app: FastifyInstance, clientDir: string, ctx: FolioContext): Promise<void> {
  await app.register(fastifyStatic, { root: clientDir, serve: false });
  const index = new ClientIndex(join(clientDir, 'index.html'));
  const routeMethods = new RouteMethods(app.routeTable);

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = decodePath(request.url.split('?')[0] ?? '/');
    const isApi =
      path !== null && (API_PREFIXES.some((p) => path.startsWith(p)) || path === '/api' || path === '/opds' || path === '/sse' || path === '/actuator');
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD') || path === null) {
      // A path routed for other methods only: Spring's 405 with the methods it takes.
      const allowed = path === null ? [] : routeMethods.allowed(path);
      if (allowed.length > 0 && request.method === 'OPTIONS') {
        // Spring MVC answers OPTIONS on a mapped path itself (HttpOptionsHandler): 200 and Allow.
        return reply.code(200).header('Allow', [...allowed, 'OPTIONS'].join(',')).send();
      }
      if (allowed.length > 0) {
        reply.header('Allow', allowed.join(','));
        return sendError(reply, request, 405, `Method '${request.method}' is not supported.`);
      }
      return sendError(reply, request, 404, 'Not Found');
    }
    const relative = normalize(path).replace(/^[/\\]+/, '');
    const candidate = join(clientDir, relative);
    if (relative && relative !== 'index.html' && !relative.split(sep).includes('..') && candidate.startsWith(clientDir) && isFile(candidate)) {
      // Vite fingerprints everything under assets/, so those can be cached forever.
      const immutable = relative.startsWith(`assets${sep}`);
      reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      return reply.sendFile(relative, { cacheControl: false });
    }
    let page: string;
    const prefix = publicPrefix(request);
    try {
      // Written for the prefix this client reached Folio under (a proxy's may differ per request).
      page = await index.page(prefix);
    } catch (error) {
      rethrowUnless(error, isUnusablePath);
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(`Folio web client not found: ${index.file} is missing. Build it with "npm run build" (or start the server with --client-dir).`);
    }
    // A reader's address may get its caller's start page named (reader-hints.ts): a page for one
    // caller, which no shared cache may keep.
    const hints = request.method === 'GET' ? readerHints(ctx, request, path, searchOf(request.url), prefix) : { head: '', body: '' };
    reply.header('Cache-Control', hints.head ? 'private, no-cache' : 'no-cache');
    return reply.type('text/html; charset=utf-8').send(withBodyTags(withHeadTags(page, prefix, hints.head), hints.body));
  });
}

function searchOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at);
}

function decodePath(path: string): string | null {
  try {
    const decoded = decodeURIComponent(path);
    return decoded.includes('\0') ? null : decoded;
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return null;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch (error) {
    rethrowUnless(error, isUnusablePath);
    return false;
  }
}
