import type { ServerResponse } from 'node:http';
import type { BackloggedStream, EventStreamBacklog } from './event-stream-backlog.ts';

/** Events that follow a write closer than this are written together at the end of the interval. */
export const EVENT_BATCH_MS = 50;

/** Bytes that may wait unsent for one client before its stream is ended (see write). */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/**
 * Writes one client's server-sent events. An event after a quiet spell goes out at once; those
 * that follow it within EVENT_BATCH_MS go out together, in order, in one write at the end of that
 * interval. A scan emits an event per book analysed, hundreds a second, and each event written on
 * its own was a writev system call on the main thread for every open stream (3–8 % of the main
 * thread of a 400-book analysis, with one stream open).
 */
export class EventStreamWriter implements BackloggedStream {
  private readonly res: ServerResponse;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = Number.NEGATIVE_INFINITY;

  private readonly onDropped: () => void;
  private readonly backlog: EventStreamBacklog | undefined;

  /**
   * `onDropped` is told when the client is dropped for reading too slowly (see send). `backlog`
   * bounds what all streams together keep unsent (event-stream-backlog.ts).
   */
  constructor(res: ServerResponse, onDropped: () => void = () => undefined, backlog?: EventStreamBacklog) {
    this.res = res;
    this.onDropped = onDropped;
    this.backlog = backlog;
    if (backlog) {
      // Everything written went out: nothing of this stream waits any more.
      res.on('drain', () => this.recount());
      res.on('close', () => this.leaveBacklog());
    }
  }

  get unsent(): number {
    return this.ended ? 0 : this.res.writableLength;
  }

  /** Ends the stream of a client that reads too slowly for what waits for it. */
  drop(): void {
    this.leaveBacklog();
    this.res.destroy();
    this.onDropped();
  }

  get ended(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  write(text: string): void {
    if (this.ended) return;
    if (this.timer) {
      this.pending.push(text);
      return;
    }
    const now = performance.now();
    const quietFor = now - this.lastWrite;
    if (quietFor >= EVENT_BATCH_MS) {
      this.send(text);
      this.lastWrite = now;
      return;
    }
    this.pending.push(text);
    this.timer = setTimeout(() => this.flush(), EVENT_BATCH_MS - quietFor);
  }

  /**
   * A heartbeat comment: with what is waiting if anything is, else on its own, without making the
   * next event wait (heartbeats are not events).
   */
  heartbeat(): void {
    if (this.ended) return;
    if (this.timer) this.pending.push(':\n\n');
    else this.send(':\n\n');
  }

  /** Writes what is waiting now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.pending.join('');
    this.pending = [];
    if (text === '' || this.ended) return;
    this.send(text);
    this.lastWrite = performance.now();
  }

  /**
   * Writes to the client. Node keeps whatever the client has not taken yet in memory, without
   * bound: a client that stops reading (a phone asleep, or someone opening streams on purpose,
   * twenty per user) had every event kept for it until the connection timed out. Past
   * MAX_UNSENT_BYTES waiting, the connection is dropped; EventSource clients reconnect.
   */
  private send(text: string): void {
    this.res.write(text);
    if (this.res.writableLength > MAX_UNSENT_BYTES) return this.drop();
    this.recount();
  }

  private recount(): void {
    if (!this.ended) this.backlog?.update(this, this.res.writableLength);
  }

  private leaveBacklog(): void {
    this.backlog?.remove(this);
  }

  /** Writes what is waiting, then `last` if given, and ends the stream. */
  end(last?: string): void {
    if (this.ended) return;
    this.flush();
    if (this.ended) return;
    if (last !== undefined) this.res.write(last);
    this.res.end();
  }

  /** The client went away: nothing more is written. */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.leaveBacklog();
  }
}
