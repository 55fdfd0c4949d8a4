import type { Db } from '../db/database.ts';
import type { Repositories } from '../db/repositories.ts';
import type { Logger } from '../logging.ts';
import type { ArchivePool } from '../media/archive-pool.ts';
import type { EventBus } from './events.ts';
import type { PagesWithoutBars } from './metadata/pages-without-bars.ts';
import type { TaskQueue } from './tasks/task-queue.ts';

/** Everything the domain services share; built once per server by create-context.ts. */
export interface FolioContext {
  db: Db;
  dataDir: string;
  repos: Repositories;
  tasks: TaskQueue;
  events: EventBus;
  archives: ArchivePool;
  /** Pages a poster task decoded and found without bars, so the barcode search skips them. */
  pagesWithoutBars: PagesWithoutBars;
  /** The server's pino logger (stdout and <data-dir>/logs/folio.log): `ctx.logger.error({ err, book }, 'what failed')`. */
  logger: Logger;
  /**
   * Set in a serving process (README "Serving processes"): the database is read-only and work that
   * writes or needs the primary's worker pools throws NeedsPrimary (needs-primary.ts) before it starts.
   */
  servingOnly?: true;
  /** Shorthand for a warning with its cause: `ctx.log('cannot read …', error)`. */
  log: (message: string, error?: unknown) => void;
}
