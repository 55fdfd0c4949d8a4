/**
 * Loaded into an e2e server with `--import` (startFolio's nodeOptions), never into the product: on
 * SIGUSR2 every 7-Zip call from then on gets a 1 ms time limit, as epub-navigation-time-limits.test.ts
 * does in process. The library is analysed first under the normal limits; the signal then makes the
 * next read of a BZIP2-stored EPUB navigation time out for real, so the server answers the manifest
 * with Folio-Navigation-Unavailable. Once armed it writes ARMED_FILE into the server's data directory,
 * so the test reads the book only after (a read before would succeed).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analysisBounds } from '../../../server/media/analysis-bounds.ts';
import { sevenZip } from '../../../server/media/sevenzip-client.ts';
import { ARMED_FILE } from './seven-zip-armed.ts';

const dataDirAt = process.argv.indexOf('--data-dir');
const dataDir = dataDirAt === -1 ? undefined : process.argv[dataDirAt + 1];

process.on('SIGUSR2', () => {
  // Warm workers may answer within any limit: a fresh one is slower than 1 ms to start.
  sevenZip.stop().then(
    () => {
      // Analysis's own bound made tiny too: a read that went by it ends at once instead of minutes later.
      analysisBounds.workMs = 3;
      Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, get: () => 1 });
      if (dataDir) writeFileSync(join(dataDir, ARMED_FILE), '');
    },
    (error: unknown) => console.error('seven-zip-times-out: stopping the 7-Zip workers failed', error),
  );
});
