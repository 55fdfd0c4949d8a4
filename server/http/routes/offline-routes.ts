import { badRequest } from '../errors.ts';
import { caller, requireRole } from '../guards.ts';
import { type FolioApp, Type } from '../schemas.ts';

/**
 * Komga endpoints backed by services Folio deliberately does not have, answered in their
 * documented shapes so Komga clients keep working:
 * - announcements and releases: Komga fetches them from komga.org / GitHub. Folio never calls out
 *   to the internet, so the feed has no items and the release list is empty (ADMIN, as in Komga);
 * - Kobo sync points: Folio has no Kobo sync, so there is never a sync point to delete.
 */
export function registerOfflineRoutes(app: FolioApp): void {
  app.get('/api/v1/announcements', async (request) => {
    requireRole(request, 'ADMIN');
    return {
      version: 'https://jsonfeed.org/version/1',
      title: 'Announcements',
      // Present though null: komga-client's KomgaJsonFeed (Komelia) declares it without a default.
      home_page_url: null,
      description: 'Folio does not fetch announcements from the internet',
      items: [],
    };
  });

  // Marking announcements read: the body is still checked, but with no announcements to show
  // there is nothing worth remembering.
  app.put('/api/v1/announcements', { schema: { body: Type.Array(Type.String()) } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const ids = request.body;
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw badRequest('The request body must be a list of announcement ids');
    return reply.code(204).send();
  });

  app.get('/api/v1/releases', async (request) => {
    requireRole(request, 'ADMIN');
    return [];
  });

  // Komga deletes the caller's Kobo sync points here (optionally only those of some API keys,
  // `key_id`). Folio has no Kobo sync and keeps no sync points: nothing to delete.
  app.delete('/api/v1/syncpoints/me', async (request, reply) => {
    caller(request);
    return reply.code(204).send();
  });
}
