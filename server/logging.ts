import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import type { LogLevel } from './config.ts';

export type { Logger } from 'pino';

/**
 * The current log file; rotated copies are folio.log.1 (newest) … folio.log.5. Serving processes
 * (README "Serving processes") write their own, `folio-serving-<n>.log`: one rotating file has one writer.
 */
export const logFilePath = (dataDir: string, name = 'folio.log') => join(dataDir, 'logs', name);

const ROTATE_SIZE = '10M';
const ROTATED_FILES = 5;

export interface AppLogger {
  logger: Logger;
  /** Flushes and closes the log file. */
  close(): Promise<void>;
}

/**
 * One pino logger for the whole server: JSON lines to stdout and to `<data-dir>/logs/folio.log`,
 * rotated by size so the data directory cannot fill up with logs.
 */
export function createAppLogger(dataDir: string, level: LogLevel, options: { stdout?: boolean; fileName?: string } = {}): AppLogger {
  if (level === 'silent') return { logger: pino({ level }), close: async () => {} };
  const fileName = options.fileName ?? 'folio.log';
  const path = logFilePath(dataDir, fileName);
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  const file = createStream(fileName, { path: join(dataDir, 'logs'), size: ROTATE_SIZE, rotate: ROTATED_FILES });
  // A log file that cannot be written must not take the server down; say so on stderr once.
  file.on('error', (error) => process.stderr.write(`Folio cannot write its log file ${path}: ${String(error)}\n`));
  // Lines can still come after close() (a connection torn down as the server stops logs its
  // "stream closed prematurely"). Written to the ended file stream, one such line made Node
  // destroy it, and the file closed at once with the lines still queued for it lost: the last
  // ones of the server's life. Once closing, they go to stderr instead.
  let fileEnded = false;
  const toFile = { write: (line: string) => void (fileEnded ? process.stderr.write(line) : file.write(line)) };
  const streams: pino.StreamEntry[] = [{ level, stream: toFile }];
  // stdout may go away under a running server (a pipe to `tee` or a log shipper that ended, a
  // closed terminal): an unheard EPIPE would take the server down with the next log line. The
  // file keeps every line, so stdout is given up instead, with one line in the file saying so.
  let stdoutLost = false;
  const onStdoutError = (error: Error) => {
    if (stdoutLost) return;
    stdoutLost = true;
    logger.warn({ err: error }, `standard output cannot be written any more: logging to ${path} only`);
  };
  if (options.stdout !== false) {
    process.stdout.on('error', onStdoutError);
    streams.push({ level, stream: { write: (line: string) => void (stdoutLost || process.stdout.write(line)) } });
  }
  const logger = pino({ level }, pino.multistream(streams));
  return {
    logger,
    close: () =>
      new Promise((resolve) => {
        process.stdout.off('error', onStdoutError);
        fileEnded = true;
        file.end(() => resolve());
      }),
  };
}
