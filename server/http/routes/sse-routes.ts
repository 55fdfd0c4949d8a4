import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { FolioContext } from '../../domain/context.ts';
import type { FolioEvent } from '../../domain/events.ts';
import { caller } from '../guards.ts';
import { isAdmin } from '../dto/user-dto.ts';
import type { FolioApp } from '../schemas.ts';

export interface SseOptions {
  /** Comment heartbeat interval (Komga: 15 s). */
  heartbeatMs: number;
}

/** Whether an event may be delivered to a connection of this user (REFERENCE §2.12 audiences). */
function visibleTo(event: FolioEvent, userId: string, admin: boolean): boolean {
  if ('userId' in event && event.userId !== userId) return false;
  if ('adminOnly' in event && !admin) return false;
  return true;
}

/**
 * `GET /sse/v1/events`: a text/event-stream of domain events (`event: <Name>` + `data: <json>`),
 * with a comment heartbeat so proxies keep the connection open.
 */
export function registerSseRoutes(app: FolioApp, ctx: FolioContext, options: SseOptions): void {
  const open = new Set<ServerResponse>();

  app.get('/sse/v1/events', async (request, reply) => {
    const user = caller(request);
    const admin = isAdmin(user);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream;charset=UTF-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
      ...(reply.getHeader('set-cookie') ? { 'Set-Cookie': reply.getHeader('set-cookie') as string } : {}),
    });
    res.write(':\n\n');
    open.add(res);
    const send = (event: FolioEvent) => {
      if (!visibleTo(event, user.id, admin)) return;
      res.write(`event:${event.name}\ndata:${JSON.stringify(event.data)}\n\n`);
    };
    const unsubscribe = ctx.events.subscribe(send);
    if (admin) send({ name: 'TaskQueueStatus', data: ctx.tasks.status() as { count: number; countByType: Record<string, number> }, adminOnly: true });
    const heartbeat = setInterval(() => res.write(':\n\n'), options.heartbeatMs);
    const cleanup = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    };
    res.on('close', cleanup);
    request.raw.on('close', cleanup);
  });

  // End live streams first, or closing the server would wait for them forever.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
    open.clear();
  });
}
