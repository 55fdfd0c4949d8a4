import type { FastifyInstance } from 'fastify';
import type { User } from '../../db/user-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { accessFingerprint, eventFor } from '../../domain/event-audience.ts';
import type { FolioEvent } from '../../domain/events.ts';
import { apiKeyIdOf } from '../auth/login-methods.ts';
import { caller } from '../guards.ts';
import { isAdmin } from '../dto/user-dto.ts';
import type { FolioApp } from '../schemas.ts';
import { EventStreamWriter } from '../event-stream-writer.ts';
import { EventStreamBacklog } from '../event-stream-backlog.ts';

/**
 * Streams one user may hold open (tabs, devices). Every event is checked against every open stream
 * (a database lookup each), so without a bound one account could open thousands and make each event
 * cost thousands of lookups; opening one more ends that user's oldest stream.
 */
export const MAX_STREAMS_PER_USER = 20;

export interface SseOptions {
  /** Comment heartbeat interval (Komga: 15 s). */
  heartbeatMs: number;
  /** Bytes all streams together may keep unsent (event-stream-backlog.ts; tests lower it). */
  maxUnsentBytesInAll?: number;
}

/**
 * `GET /sse/v1/events`: a text/event-stream of domain events (`event: <Name>` + `data: <json>`),
 * with a comment heartbeat so proxies keep the connection open. Each event goes only to users
 * allowed to see what it names (event-audience.ts). Before every event and heartbeat the stream
 * checks that what it was opened with still holds — the session (logout, expiry, password change) or API key (deleted),
 * the user (deletion) and their roles and restrictions — and ends otherwise; a SessionExpired for
 * its user is delivered and then ends it at once, and the deletion of its API key (ApiKeyDeleted) ends it at once. Bursts of events are written together
 * (event-stream-writer.ts).
 */
export function registerSseRoutes(app: FolioApp, ctx: FolioContext, options: SseOptions): void {
  const open = new Set<EventStreamWriter>();
  /** Each user's open streams, oldest first. */
  const byUser = new Map<string, EventStreamWriter[]>();
  const backlog = new EventStreamBacklog(options.maxUnsentBytesInAll);

  app.get('/sse/v1/events', async (request, reply) => {
    const opener = caller(request);
    const fingerprint = accessFingerprint(opener);
    const sessionIdHash = request.sessionIdHash;
    const apiKeyId = apiKeyIdOf(request);
    reply.hijack();
    const res = reply.raw;
    // The security headers are already on `res` (security-headers.ts sets them on the raw response).
    res.writeHead(200, {
      'Content-Type': 'text/event-stream;charset=UTF-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      ...(reply.getHeader('set-cookie') ? { 'Set-Cookie': reply.getHeader('set-cookie') as string } : {}),
    });
    const stream = new EventStreamWriter(
      res,
      () => ctx.logger.warn({ userId: opener.id, remoteAddress: request.ip }, 'event stream dropped: its client left too many events unread'),
      backlog,
    );
    stream.write(':\n\n');
    open.add(stream);
    const mine = byUser.get(opener.id) ?? [];
    mine.push(stream);
    byUser.set(opener.id, mine);
    while (mine.length > MAX_STREAMS_PER_USER) mine.shift()!.end();

    /** The user as they are now, or undefined once the stream's authorisation no longer holds. */
    const currentUser = (): User | undefined => {
      const user = ctx.repos.users.findById(opener.id);
      if (!user || accessFingerprint(user) !== fingerprint) return undefined;
      if (sessionIdHash && !ctx.repos.sessions.find(sessionIdHash)) return undefined;
      if (apiKeyId && !ctx.repos.apiKeys.exists(apiKeyId)) return undefined;
      return user;
    };
    const send = (event: FolioEvent) => {
      if (stream.ended) return;
      // Another user's own event (read progress: every page a reader turns) is never this stream's,
      // whoever its user has become: skip it before the lookups below. With a few hundred readers
      // those lookups ran for every open stream on every page turn of everyone.
      if ('userId' in event && event.userId !== opener.id) return;
      // Ending a user's sessions deletes them before the event goes out, so the session check below
      // would end the stream without saying why: the user's own SessionExpired (it names only them)
      // is delivered first.
      if (event.name === 'SessionExpired' && event.userId === opener.id) {
        return stream.end(`event:${event.name}\ndata:${JSON.stringify(event.data)}\n\n`);
      }
      // The key this stream was opened with is gone: end now, not at the next heartbeat. Another
      // key's deletion says nothing to this stream (and internal events are never written).
      if (event.name === 'ApiKeyDeleted') {
        if (event.data.apiKeyId === apiKeyId) stream.end();
        return;
      }
      const user = currentUser();
      if (!user) return stream.end();
      const visible = eventFor(ctx.repos, user, isAdmin(user), event);
      if (visible) stream.write(`event:${visible.name}\ndata:${JSON.stringify(visible.data)}\n\n`);
    };
    const unsubscribe = ctx.events.subscribe(send);
    if (isAdmin(opener)) send({ name: 'TaskQueueStatus', data: ctx.tasks.status() as { count: number; countByType: Record<string, number> }, adminOnly: true });
    const heartbeat = setInterval(() => {
      if (currentUser()) stream.heartbeat();
      else stream.end();
    }, options.heartbeatMs);
    const cleanup = () => {
      clearInterval(heartbeat);
      unsubscribe();
      stream.discard();
      open.delete(stream);
      const index = mine.indexOf(stream);
      if (index >= 0) mine.splice(index, 1);
      if (mine.length === 0 && byUser.get(opener.id) === mine) byUser.delete(opener.id);
    };
    res.on('close', cleanup);
    res.on('finish', cleanup);
    request.raw.on('close', cleanup);
  });

  // End live streams first, or closing the server would wait for them forever.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
    open.clear();
    byUser.clear();
  });
}
