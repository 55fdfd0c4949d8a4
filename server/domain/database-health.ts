import { type DatabaseProbe, probeDatabase } from '../db/database-health.ts';
import type { FolioContext } from './context.ts';

/**
 * How long one probe's answer is reused. /actuator/health is open to anyone: however often it is
 * called, the database file is opened at most once a second.
 */
const PROBE_REUSE_MS = 1_000;

/** The database's health as /actuator/health reports it; a change between up and down is logged once. */
export class DatabaseHealth {
  private last: { at: number; probe: DatabaseProbe } | undefined;
  private readonly ctx: FolioContext;

  constructor(ctx: FolioContext) {
    this.ctx = ctx;
  }

  current(now = Date.now()): DatabaseProbe {
    if (this.last && now - this.last.at < PROBE_REUSE_MS) return this.last.probe;
    const probe = probeDatabase(this.ctx.db);
    const wasUp = this.last?.probe.up ?? true;
    if (!probe.up && wasUp) this.ctx.logger.error({ reason: probe.error }, 'health: the database cannot be queried');
    if (probe.up && !wasUp) this.ctx.logger.warn('health: the database can be queried again');
    this.last = { at: now, probe };
    return probe;
  }
}
