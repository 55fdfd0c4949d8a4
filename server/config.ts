import { parseArgs } from 'node:util';
import { basePathProblem, normaliseBasePath } from './base-path.ts';

/** pino's levels; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Which peers may set X-Forwarded-For/Proto/Host/Port/Prefix: `false` (nobody, the default), `true`
 * (everybody: only when Folio is reachable through the proxy alone), or a list of addresses, CIDR
 * ranges and proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = boolean | string[];

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  clientDir: string;
  /** Origins allowed to call the API from other sites (CORS); empty = CORS off, as in Komga. */
  corsOrigins: string[];
  trustProxy: TrustProxy;
  /** The path every route is served under ('' for the root, else `/folio`); see README "Configuration". */
  basePath: string;
  logLevel: LogLevel;
  /** Authentication activity kept: attempts younger than this many days, at most this many rows. */
  authActivityRetention: { days: number; maxRows: number };
  /** Processes answering HTTP: 1 (the default) is the primary alone; README "Serving processes". */
  servingProcesses: number;
}

/** A setting that cannot be used, said in one line for the person starting the server. */
export class ConfigError extends Error {}

/** Each setting's value when neither its flag nor its variable is given (the usage text shows them too). */
const DEFAULTS = {
  port: '25600',
  host: '0.0.0.0',
  dataDir: './data',
  clientDir: './dist',
  trustProxy: 'false',
  basePath: '',
  logLevel: 'info',
  authActivityDays: '90',
  authActivityMaxRows: '100000',
  servingProcesses: '1',
} as const;

/** More serving processes than this cannot pay off on any machine Folio targets, and each holds a database connection and descriptors. */
export const MAX_SERVING_PROCESSES = 16;

/** What `node server/main.ts --help` prints. */
export const USAGE = `Usage: node server/main.ts [options]   (npm start builds the web client first)

Each option can also be set by the environment variable after it; an option wins over its variable.

  --port N                    FOLIO_PORT                    port to listen on (default ${DEFAULTS.port}; 0 picks a free one)
  --host H                    FOLIO_HOST                    address to bind (default ${DEFAULTS.host})
  --data-dir DIR              FOLIO_DATA_DIR                database, posters and caches (default ${DEFAULTS.dataDir})
  --client-dir DIR            FOLIO_CLIENT_DIR              built web client (default ${DEFAULTS.clientDir})
  --cors-origins A,B          FOLIO_CORS_ORIGINS            other sites allowed to call the API (default none)
  --trust-proxy LIST          FOLIO_TRUST_PROXY             proxies whose X-Forwarded-* headers count: ${DEFAULTS.trustProxy}
                                                            (default), true, or addresses, CIDR ranges, loopback
  --base-path PATH            FOLIO_BASE_PATH               serve everything under this path, e.g. /folio (default: the
                                                            root); a trusted proxy's X-Forwarded-Prefix replaces it in links
  --log-level L               FOLIO_LOG_LEVEL               ${LOG_LEVELS.join(', ')} (default ${DEFAULTS.logLevel})
  --auth-activity-days N      FOLIO_AUTH_ACTIVITY_DAYS      days of sign-in history kept (default ${DEFAULTS.authActivityDays})
  --auth-activity-max-rows N  FOLIO_AUTH_ACTIVITY_MAX_ROWS  sign-in history rows kept at most (default ${DEFAULTS.authActivityMaxRows})
  --serving-processes N       FOLIO_SERVING_PROCESSES       processes answering HTTP on the port (default ${DEFAULTS.servingProcesses}, at most
                                                            ${MAX_SERVING_PROCESSES}); past 1, N-1 serving processes answer pages and
                                                            book posters, the primary everything else (README)
  -h, --help                                                print this and exit
`;

/** True when the command line asks for the usage text instead of a server. */
export function wantsHelp(argv: string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/** Flags win over environment variables, which win over defaults. */
export function readConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  try {
    return configFrom(argv, env);
  } catch (error) {
    // parseArgs' own errors (unknown option, missing value) read well; their stack does not help.
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) throw new ConfigError(error.message);
    throw error;
  }
}

function configFrom(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'client-dir': { type: 'string' },
      'cors-origins': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'base-path': { type: 'string' },
      'log-level': { type: 'string' },
      'auth-activity-days': { type: 'string' },
      'auth-activity-max-rows': { type: 'string' },
      'serving-processes': { type: 'string' },
    },
    strict: true,
  });
  const portText = values.port ?? env.FOLIO_PORT ?? DEFAULTS.port;
  const port = Number(portText);
  if (portText.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`Invalid port: ${portText} (a whole number from 0 to 65535)`);
  return {
    port,
    host: values.host ?? env.FOLIO_HOST ?? DEFAULTS.host,
    dataDir: values['data-dir'] ?? env.FOLIO_DATA_DIR ?? DEFAULTS.dataDir,
    clientDir: values['client-dir'] ?? env.FOLIO_CLIENT_DIR ?? DEFAULTS.clientDir,
    corsOrigins: (values['cors-origins'] ?? env.FOLIO_CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    trustProxy: parseTrustProxy(values['trust-proxy'] ?? env.FOLIO_TRUST_PROXY ?? DEFAULTS.trustProxy),
    basePath: parseBasePath(values['base-path'] ?? env.FOLIO_BASE_PATH ?? DEFAULTS.basePath),
    logLevel: parseLogLevel(values['log-level'] ?? env.FOLIO_LOG_LEVEL ?? DEFAULTS.logLevel),
    authActivityRetention: {
      days: positiveInteger('auth-activity-days', values['auth-activity-days'] ?? env.FOLIO_AUTH_ACTIVITY_DAYS ?? DEFAULTS.authActivityDays),
      maxRows: positiveInteger('auth-activity-max-rows', values['auth-activity-max-rows'] ?? env.FOLIO_AUTH_ACTIVITY_MAX_ROWS ?? DEFAULTS.authActivityMaxRows),
    },
    servingProcesses: servingProcesses(values['serving-processes'] ?? env.FOLIO_SERVING_PROCESSES ?? DEFAULTS.servingProcesses),
  };
}

function positiveInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`Invalid ${name}: ${text} (a whole number, at least 1)`);
  return value;
}

function servingProcesses(text: string): number {
  const value = positiveInteger('serving-processes', text);
  if (value > MAX_SERVING_PROCESSES) throw new ConfigError(`Invalid serving-processes: ${text} (at most ${MAX_SERVING_PROCESSES})`);
  return value;
}

function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  if (/^(false|no|off|0|)$/i.test(value)) return false;
  if (/^(true|yes|on)$/i.test(value)) return true;
  // A bare number would be a hop count, which cannot check who the immediate peer is.
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (/^\d+$/.test(entry)) throw new ConfigError(`Invalid trust-proxy entry (hop counts are not supported): ${entry}`);
  }
  return entries;
}

function parseBasePath(text: string): string {
  const problem = basePathProblem(text);
  if (problem !== undefined) throw new ConfigError(`Invalid base path: ${text} (${problem})`);
  return normaliseBasePath(text) ?? '';
}

function parseLogLevel(text: string): LogLevel {
  const level = text.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new ConfigError(`Invalid log level: ${text} (one of ${LOG_LEVELS.join(', ')})`);
}
