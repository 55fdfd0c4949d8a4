/** Messages between the decode pool (main thread) and a decode worker. Types only. */

export interface Box {
  width: number;
  height: number;
}

export interface WorkerDecodeRequest {
  /** Absolute URL (a worker resolves relative URLs against its own script, not the page). */
  url: string;
  /** Exact device-pixel size to decode to. */
  size?: Box;
  /** The image's own size when known (the server measured it): lets a JPEG decode at a reduced scale. */
  natural?: Box;
  /** Or: decode at natural size, shrunk (aspect kept) to fit this box when larger. */
  fitWithin?: Box;
  headers?: Record<string, string>;
  /** The page's bytes, already fetched (a prefetch on the main thread): no fetch then. */
  blob?: Blob;
  /**
   * The worker holds a download of this URL it started ahead (fetchAhead): the decode uses those
   * bytes; 'take' forgets them after, 'keep' leaves them for another decode at another size.
   */
  fetchedAhead?: 'take' | 'keep';
  /**
   * 'auto' (default): a scaled decode through WebCodecs' ImageDecoder where the browser has it, else
   * createImageBitmap. 'bitmap' forces createImageBitmap (the benchmark's "old path").
   */
  method?: DecodeMethod;
}

export type DecodeMethod = 'auto' | 'bitmap';

export type DecodeFailureReason = 'aborted' | 'http' | 'network' | 'decode';

export type WorkerDecodeOutcome =
  | { ok: true; bitmap: ImageBitmap; naturalWidth: number | null; naturalHeight: number | null }
  | { ok: false; reason: DecodeFailureReason; status?: number; message: string };

export interface DecodeWorkerApi {
  decode(id: number, request: WorkerDecodeRequest): Promise<WorkerDecodeOutcome>;
  cancel(id: number): void;
  /** Answers once the worker's script has run (the pool then gives it downloads ahead). */
  ready(): boolean;
  /**
   * Starts downloading `url` now, for a decode asked for later (the page a book opens at, known before
   * its size is): the bytes then go straight from the network into this worker's decoder.
   */
  fetchAhead(url: string, headers?: Record<string, string>): void;
  /** Forgets the bytes fetched ahead for `url` (their decode was taken, nobody needs them again). */
  releaseAhead(url: string): void;
}
