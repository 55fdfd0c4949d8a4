import { readFile, stat } from 'node:fs/promises';
import { clientPage } from './client-page.ts';

/** Prefixes whose page is kept at once: the --base-path and a trusted proxy's few; more only when a proxy varies it. */
const MAX_PAGES = 8;

/**
 * The built web client's index.html, served from memory: every client-route navigation needs it,
 * and it changes only when the client is rebuilt or replaced while the server runs. Each request
 * checks the file's identity (device, inode, size, modification time in nanoseconds, as nginx's
 * open_file_cache does) with one stat and reads it again only when that changed; the page written
 * for each prefix is kept with it.
 */
export class ClientIndex {
  readonly file: string;
  #loaded: { identity: string; html: string; pages: Map<string, string> } | undefined;

  constructor(file: string) {
    this.file = file;
  }

  /** The page for `prefix` (client-page.ts). Rejects with the file system's error when the file cannot be read. */
  async page(prefix: string): Promise<string> {
    const info = await stat(this.file, { bigint: true });
    const identity = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`;
    if (this.#loaded?.identity !== identity) {
      // Replaced between the stat and the read: the next request sees a new identity and reads again.
      this.#loaded = { identity, html: await readFile(this.file, 'utf8'), pages: new Map() };
    }
    const { html, pages } = this.#loaded;
    let page = pages.get(prefix);
    if (page === undefined) {
      if (pages.size >= MAX_PAGES) pages.clear();
      page = clientPage(html, prefix);
      pages.set(prefix, page);
    }
    return page;
  }
}
