import { spawn, type ChildProcess } from 'node:child_process';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts `node server/main.ts` on a free port and resolves with its address. */
export function startServer(repoRoot: string, dataDir: string, clientDir: string): Promise<RunningServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['server/main.ts', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--client-dir', clientDir, '--log-level', 'warn'],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Folio listening on (http:\/\/\S+)/.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      // Server errors show in the benchmark's output: a slow figure may have a reason there.
      process.stderr.write(`[server] ${chunk.toString()}`);
      onData(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** A tiny Komga API client for setting the server up: claim, add a library, scan, wait for books. */
export class AdminClient {
  readonly url: string;
  readonly #auth: string;

  constructor(url: string, email: string, password: string) {
    this.url = url;
    this.#auth = `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
  }

  async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        Authorization: this.#auth,
        'X-Requested-With': 'XMLHttpRequest',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async claim(email: string, password: string): Promise<void> {
    const response = await fetch(`${this.url}/api/v1/claim`, {
      method: 'POST',
      headers: { 'X-Komga-Email': email, 'X-Komga-Password': password, 'X-Requested-With': 'XMLHttpRequest' },
    });
    if (!response.ok) throw new Error(`claim: HTTP ${response.status} ${await response.text()}`);
  }

  /** Adds a library, scans it, and waits until `expectedBooks` books are analysed. */
  async library(root: string, expectedBooks: number): Promise<{ id: string; name: string; pages: number }[]> {
    const library = await this.call<{ id: string }>('POST', '/api/v1/libraries', { name: 'Bench', root });
    await this.call('POST', `/api/v1/libraries/${library.id}/scan`);
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const page = await this.call<{ content: { id: string; name: string; media: { status: string; pagesCount: number } }[] }>(
        'GET',
        `/api/v1/books?library_id=${library.id}&size=100`,
      );
      const ready = page.content.filter((book) => book.media.status === 'READY');
      if (ready.length >= expectedBooks) return ready.map((book) => ({ id: book.id, name: book.name, pages: book.media.pagesCount }));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    throw new Error('books were not analysed in time');
  }
}
