import type { FolioContext } from '../context.ts';
import { boundImported, describeCuts } from './imported-text.ts';

/**
 * What an importer read from `source` (a file named for the log), within the import limits
 * (imported-text.ts); a cut is logged as a warning, and the import goes on with what was kept.
 */
export function boundedImport<T>(ctx: FolioContext, value: T, source: string): T {
  const bounded = boundImported(value);
  if (bounded.cuts.length > 0) ctx.log(`metadata of ${source} cut to fit the import limits: ${describeCuts(bounded.cuts)}`);
  return bounded.value;
}
