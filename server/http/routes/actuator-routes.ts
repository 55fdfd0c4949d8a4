import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FolioContext } from '../../domain/context.ts';
import { TaskMetrics } from '../../domain/tasks/task-metrics.ts';
import { DatabaseHealth } from '../../domain/database-health.ts';
import { logFilePath } from '../../logging.ts';
import { badRequest, notFound } from '../errors.ts';
import { sendAttachment } from '../file-download.ts';
import { requireRole } from '../guards.ts';
import { isAdmin } from '../dto/user-dto.ts';
import { Type, type FolioApp } from '../schemas.ts';
import { isMissingFile } from '../../fs-errors.ts';

interface Measurement {
  statistic: string;
  value: number;
}
interface Metric {
  description: string;
  baseUnit?: string;
  tag?: string;
  /** Known values of the tag. */
  tagValues: () => string[];
  /** Measurements for the selected tag values (empty = all). */
  measure: (tagValues: string[]) => Measurement[];
}

const version = (() => {
  try {
    return (JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch (error) {
    // Installed without its package.json (or a broken one): report an unknown version.
    if (!isMissingFile(error) && !(error instanceof SyntaxError)) throw error;
    return '0.0.0';
  }
})();

/**
 * Spring Boot actuator endpoints the web client uses (REFERENCE §2.8): health (anonymous),
 * info, metrics (Komga's names and tags) and shutdown; everything but health needs ADMIN.
 */
export function registerActuatorRoutes(app: FolioApp, ctx: FolioContext, onShutdown: () => void): void {
  const tasks = new TaskMetrics(ctx.tasks);
  const libraryIds = () => ctx.repos.libraries.findAll().map((l) => l.id);
  const { statistics } = ctx.repos;
  const value = (v: number): Measurement[] => [{ statistic: 'VALUE', value: v }];

  const metrics: Record<string, Metric> = {
    'komga.tasks.execution': {
      description: 'Task execution time',
      baseUnit: 'seconds',
      tag: 'type',
      tagValues: () => [...tasks.byType.keys()].sort(),
      measure: (types) => {
        const t = tasks.total(types);
        return [
          { statistic: 'COUNT', value: t.count },
          { statistic: 'TOTAL_TIME', value: t.totalMs / 1000 },
          { statistic: 'MAX', value: t.maxMs / 1000 },
        ];
      },
    },
    'komga.tasks.failure': {
      description: 'Count of failed tasks',
      tag: 'type',
      tagValues: () => [...tasks.byType.keys()].sort(),
      measure: (types) => [{ statistic: 'COUNT', value: tasks.total(types).failures }],
    },
    'komga.series': {
      description: 'The number of series',
      tag: 'library',
      tagValues: libraryIds,
      measure: (libs) => value(statistics.liveSeriesCount(libs)),
    },
    'komga.books': {
      description: 'The number of books',
      tag: 'library',
      tagValues: libraryIds,
      measure: (libs) => value(statistics.liveBookCount(libs)),
    },
    'komga.books.filesize': {
      description: 'The cumulated file size of books',
      baseUnit: 'bytes',
      tag: 'library',
      tagValues: libraryIds,
      measure: (libs) => value(statistics.liveBookFileSize(libs)),
    },
    'komga.sidecars': {
      description: 'The number of sidecars (local artwork)',
      tag: 'library',
      tagValues: libraryIds,
      measure: (libs) => value(statistics.sidecarCount(libs)),
    },
    'komga.libraries': { description: 'The number of libraries', tagValues: () => [], measure: () => value(libraryIds().length) },
    'komga.collections': {
      description: 'The number of collections',
      tagValues: () => [],
      measure: () => value(statistics.collectionCount()),
    },
    'komga.readlists': {
      description: 'The number of read lists',
      tagValues: () => [],
      measure: () => value(statistics.readListCount()),
    },
  };

  // Spring Boot's shape: 200 UP, or 503 DOWN when the database cannot be queried; components
  // (Komga's show-details: when_authorized, roles ADMIN) for admins only.
  const database = new DatabaseHealth(ctx);
  app.get('/actuator/health', async (request, reply) => {
    const probe = database.current();
    const status = probe.up ? 'UP' : 'DOWN';
    reply.code(probe.up ? 200 : 503);
    if (!request.user || !isAdmin(request.user)) return { status };
    const details = probe.up ? { database: 'SQLite', validationQuery: 'isValid()' } : { error: probe.error };
    return { status, components: { db: { status, details }, ping: { status: 'UP' } } };
  });

  app.get('/actuator/info', async (request) => {
    requireRole(request, 'ADMIN');
    return { build: { name: 'folio', version }, git: { branch: 'main', commit: { id: '', time: '' } } };
  });

  app.get('/actuator/metrics', async (request) => {
    requireRole(request, 'ADMIN');
    return { names: Object.keys(metrics).sort() };
  });

  app.get('/actuator/metrics/:name', { schema: { params: Type.Object({ name: Type.String() }), querystring: Type.Object({ tag: Type.Optional(Type.Array(Type.String())) }) } }, async (request) => {
    requireRole(request, 'ADMIN');
    const metric = metrics[request.params.name];
    if (!metric) throw notFound('Metric not found');
    const tags = request.query.tag ?? [];
    const selected: string[] = [];
    for (const tag of tags) {
      const colon = tag.indexOf(':');
      if (colon < 0) throw badRequest(`Invalid tag: ${tag}`);
      if (tag.slice(0, colon) !== metric.tag) throw notFound('Metric not found');
      selected.push(tag.slice(colon + 1));
    }
    const available = metric.tagValues();
    return {
      name: request.params.name,
      description: metric.description,
      ...(metric.baseUnit ? { baseUnit: metric.baseUnit } : {}),
      measurements: metric.measure(selected),
      availableTags: metric.tag && available.length ? [{ tag: metric.tag, values: available }] : [],
    };
  });

  // The current log file (rotated copies stay on disk); 404 when logging is silent, as Spring does without a log file.
  app.get('/actuator/logfile', async (request, reply) => {
    requireRole(request, 'ADMIN');
    // Not a library file: no library root to stay inside.
    return sendAttachment(request, reply, logFilePath(ctx.dataDir), 'text/plain; charset=utf-8', 'folio.log', []);
  });

  app.post('/actuator/shutdown', async (request, reply) => {
    requireRole(request, 'ADMIN');
    reply.raw.once('finish', () => setImmediate(onShutdown));
    return { message: 'Shutting down, bye...' };
  });
}
