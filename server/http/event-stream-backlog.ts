/** Bytes that may wait unsent across every open event stream of the server (see EventStreamBacklog). */
export const MAX_UNSENT_BYTES_IN_ALL = 64 * 1024 * 1024;

/** What the backlog needs of a stream: its bytes waiting now, and a way to drop it. */
export interface BackloggedStream {
  readonly unsent: number;
  drop(): void;
}

/**
 * The bytes event streams keep in memory for clients that have not read them, across all streams.
 * Each stream is dropped past its own bound (MAX_UNSENT_BYTES), but a few hundred clients that
 * stopped reading (phones asleep with the page open, or one account's twenty streams times many
 * accounts) could each keep that much: 4 MiB times the connection cap is gigabytes. Past `limit`
 * in all, the streams holding the most are dropped until the rest fit; EventSource clients
 * reconnect and read the state afresh. Streams report what they add as they write and what they
 * let go when they drain, so the count costs nothing per event; it may overstate (a partial drain
 * is not reported), so it is counted exactly before anything is dropped.
 */
export class EventStreamBacklog {
  readonly limit: number;
  /** Each open stream's unsent bytes as last told. */
  private readonly streams = new Map<BackloggedStream, number>();
  private counted = 0;

  constructor(limit = MAX_UNSENT_BYTES_IN_ALL) {
    this.limit = limit;
  }

  /** A stream wrote or drained: its unsent bytes now. */
  update(stream: BackloggedStream, unsent: number): void {
    this.counted += unsent - (this.streams.get(stream) ?? 0);
    this.streams.set(stream, unsent);
    if (this.counted > this.limit) this.trim();
  }

  /** The stream ended: nothing of it is kept any more. */
  remove(stream: BackloggedStream): void {
    this.counted -= this.streams.get(stream) ?? 0;
    this.streams.delete(stream);
  }

  private trim(): void {
    for (const stream of this.streams.keys()) this.streams.set(stream, stream.unsent);
    this.counted = [...this.streams.values()].reduce((sum, unsent) => sum + unsent, 0);
    const largestFirst = [...this.streams].sort((a, b) => b[1] - a[1]);
    for (const [stream] of largestFirst) {
      if (this.counted <= this.limit) return;
      // drop() ends the stream and removes it, taking its bytes off the count.
      stream.drop();
      this.remove(stream);
    }
  }
}
