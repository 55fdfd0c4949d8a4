import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { refuseConnection, refusalSlots } from './connection-refusal.ts';

/**
 * Keeps room for new connections under the connection cap (set from the descriptor budget,
 * connectionCap()). Past the cap a new connection is refused, and it was even when most of the
 * open ones were idle keep-alive sockets waiting out their timeout (Fastify keeps them 72 s): a
 * browser holds up to six per host and OkHttp five, so a few hundred readers' idle sockets filled
 * the cap and the next reader's thumbnails and lists failed with a reset.
 *
 * When fewer than two places are left under the cap (a connection arrives, or a response ends, or
 * one was refused), idle sockets are closed, the longest idle first, until a margin is free again. Only as many as needed, and never sooner:
 * closing every idle socket whenever the crowd came near the cap also closed sockets their clients
 * were about to reuse, and a client that sends on a socket the server has just closed sees a reset
 * unless it retries (Node's fetch does not). A socket counts as idle once its last response has
 * ended; a connection that has not sent its first request yet is not idle.
 *
 * A connection that still finds no place (every one busy or just opened) is answered 503 with
 * Retry-After and closed (connection-refusal.ts), instead of the reset Node gives past
 * `maxConnections`: a load run of 300 readers saw 1,400 resets and no answer. Node's own refusal
 * cannot answer ('drop' comes after the socket is destroyed, with its addresses only), so the
 * connections are counted here instead. `refusals` places above the cap are kept for refused
 * connections to linger until their client has read the answer; past those (a burst) a refused
 * connection is answered and closed at once, holding its descriptor only for that write.
 */
/**
 * How long a connection may go without a whole request before it may be closed at the cap. A client
 * sends its request as soon as it has connected (a TLS handshake over a slow link takes a second or
 * two); one that sends the start of a request and never its end (slowloris) is holding a place.
 */
export const SLOW_START_MS = 10_000;

const REFUSALS_TOLD_EVERY_MS = 60_000;

export interface ConnectionPressureOptions {
  slowStartMs?: number;
  /** Places above the cap where refused connections wait for their client to read the 503 (default refusalSlots(cap)). */
  refusals?: number;
  /** How long a refused connection may stay open for the client to read its 503 (connection-refusal.ts). */
  refusalLingerMs?: number;
  /** Told when connections are refused (at most once a minute, with how many since), and of errors on refused connections. */
  onRefusing?: (details: { cap: number; refused: number }) => void;
  onRefusalError?: (error: Error) => void;
}

/**
 * `budget`: connections the descriptors allow (descriptor-budget.ts connectionBudget); a share of
 * it is kept for refusals and the rest served.
 */
export function connectionCap(budget: number): { cap: number; refusals: number } {
  const refusals = Math.min(refusalSlots(budget), Math.max(0, budget - 1));
  return { cap: budget - refusals, refusals };
}

const caps = new WeakMap<Server, number>();

/** The connections `server` serves at once, if relieveConnectionPressure() bounds them. */
export function servedConnectionCap(server: Server): number | undefined {
  return caps.get(server);
}

export function relieveConnectionPressure(server: Server, cap: number, options: ConnectionPressureOptions = {}): void {
  const slowStartMs = options.slowStartMs ?? SLOW_START_MS;
  const refusals = options.refusals ?? refusalSlots(cap);
  // Counted here, not by Node: past maxConnections Node resets a connection unanswered, and it
  // counts a closed socket until its close event, so in a burst accepted in one go the sockets
  // refused at once would fill any bound set above the cap.
  server.maxConnections = Infinity;
  caps.set(server, cap);
  const trigger = Math.max(1, cap - 2);
  const target = Math.max(1, cap - Math.max(4, Math.floor(cap / 16)));
  let open = 0;
  /** Idle sockets; a Map iterates in insertion order, so the longest idle comes first. */
  const idle = new Map<Socket, true>();
  /** Connections that have not sent a whole request yet, and when they came; the oldest first. */
  const unstarted = new Map<Socket, number>();
  const inFlight = new Map<Socket, number>();
  const evicted = new WeakSet<Socket>();

  let refused = 0;
  let lingering = 0;
  let toldAt = -Infinity;
  // The HTTP server attaches its parser in a 'connection' listener, and a listener cannot stop the
  // ones after it: a refused connection would still have its request parsed and routed. So the
  // event itself is held back for a connection that is refused (limitConnectionsPerAddress and
  // every other listener then see only the connections served).
  const emit = server.emit;
  server.emit = function emitUnlessRefused(this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'connection' && !admit(args[0] as Socket)) return true;
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as Server['emit'];

  function admit(socket: Socket): boolean {
    if (open >= cap) evictIdle(open + 1 - target);
    if (open < cap) return true;
    // Told at most once a minute: a crowd at the cap is refused and let in by turns.
    refused++;
    if (Date.now() - toldAt >= REFUSALS_TOLD_EVERY_MS) {
      toldAt = Date.now();
      options.onRefusing?.({ cap, refused });
      refused = 0;
    }
    // The lingering places full (a burst): answer and close at once, the descriptor freed before
    // the next connection is accepted.
    const linger = lingering < refusals;
    if (linger) {
      lingering++;
      socket.once('close', () => lingering--);
    }
    refuseConnection(socket, { lingerMs: linger ? options.refusalLingerMs : 0, onError: options.onRefusalError });
    return false;
  }

  server.on('connection', (socket: Socket) => {
    open++;
    unstarted.set(socket, Date.now());
    socket.once('close', () => {
      if (!evicted.has(socket)) open--;
      idle.delete(socket);
      inFlight.delete(socket);
      unstarted.delete(socket);
    });
    if (open >= trigger) evictIdle(open - target);
  });

  server.on('request', (request, response) => {
    const socket = request.socket;
    idle.delete(socket);
    unstarted.delete(socket);
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      if (left > 0) return void inFlight.set(socket, left);
      inFlight.delete(socket);
      if (socket.destroyed) return;
      idle.set(socket, true);
      // A crowd that filled the cap while every socket was busy leaves no connection event to act
      // on: Node refuses the next connection before announcing it. Make the room as sockets go idle.
      if (open >= trigger) evictIdle(open - target);
    });
  });

  function evictIdle(count: number): void {
    for (const socket of idle.keys()) {
      if (count <= 0) return;
      idle.delete(socket);
      evict(socket);
      count--;
    }
    // No idle socket left: connections that have sent no whole request for long, the oldest first
    // (a slow-headers crowd is otherwise never idle, and kept every newcomer out).
    const before = Date.now() - slowStartMs;
    for (const [socket, since] of unstarted) {
      if (count <= 0 || since > before) return;
      unstarted.delete(socket);
      evict(socket);
      count--;
    }
  }

  function evict(socket: Socket): void {
    evicted.add(socket);
    open--;
    socket.destroy();
  }
}
