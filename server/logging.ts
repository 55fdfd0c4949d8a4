import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import type { LogLevel } from './config.ts';

export type { Logger } from 'pino';

/** The current log file; rotated copies are folio.log.1 (newest) … folio.log.5. */
export const logFilePath = (dataDir: string) => join(dataDir, 'logs', 'folio.log');

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
export function createAppLogger(dataDir: string, level: LogLevel, options: { stdout?: boolean } = {}): AppLogger {
  if (level === 'silent') return { logger: pino({ level }), close: async () => {} };
  const path = logFilePath(dataDir);
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  const file = createStream('folio.log', { path: join(dataDir, 'logs'), size: ROTATE_SIZE, rotate: ROTATED_FILES });
  // A log file that cannot be written must not take the server down; say so on stderr once.
  file.on('error', (error) => process.stderr.write(`Folio cannot write its log file ${path}: ${String(error)}\n`));
  const streams: pino.StreamEntry[] = [{ level, stream: file }];
  if (options.stdout !== false) streams.push({ level, stream: process.stdout });
  const logger = pino({ level }, pino.multistream(streams));
  return {
    logger,
    close: () =>
      new Promise((resolve) => {
        file.end(() => resolve());
      }),
  };
}
