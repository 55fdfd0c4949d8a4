import { pageBytesKey } from './pageBytesKey.ts';

/** A page's bytes, or why there are none. */
export type Download = Blob | { failed: 'http' | 'network'; status?: number; message: string } | { failed: 'aborted' };

export type Downloader = (url: string, headers: Record<string, string> | undefined) => Promise<Download>;

/**
 * Downloads a decode worker started ahead of their decode (the page a book opens at: its address is
 * known before the size it will be drawn at). Living in the worker, the bytes go straight from the
 * network into the decoder, with no stop on a main thread that is busy starting the app. Keyed like
 * the main thread's prefetch (pageBytesKey), so a download started without the book's version serves
 * the versioned URL. An entry nobody uses is forgotten after `keptMs`.
 */
export class AheadDownloads {
  #entries = new Map<string, { bytes: Promise<Download>; timer: ReturnType<typeof setTimeout> }>();
  #keptMs: number;
  #download: Downloader;

  constructor(download: Downloader, keptMs = 60_000) {
    this.#download = download;
    this.#keptMs = keptMs;
  }

  start(url: string, headers?: Record<string, string>): void {
    const key = pageBytesKey(url);
    if (this.#entries.has(key)) return;
    const timer = setTimeout(() => this.#entries.delete(key), this.#keptMs);
    this.#entries.set(key, { bytes: this.#download(url, headers), timer });
  }

  /** The download of `url`, if one was started; `take` forgets it, else it stays for another decode. */
  get(url: string, { take }: { take: boolean }): Promise<Download> | undefined {
    const key = pageBytesKey(url);
    const entry = this.#entries.get(key);
    if (entry && take) this.release(url);
    return entry?.bytes;
  }

  release(url: string): void {
    const key = pageBytesKey(url);
    const entry = this.#entries.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.#entries.delete(key);
  }
}
