import { type ChildProcess, fork } from 'node:child_process';
import type { Logger } from './logging.ts';

/**
 * The primary's serving processes (README "Serving processes"): `count` copies of this entry point
 * started as serving processes on the primary's port (SO_REUSEPORT: the kernel shares connections
 * out), each told the port and the primary's internal socket through its environment. One that
 * ends while the server runs is logged and started again, after 1 s, doubling to 30 s while it keeps
 * ending within a minute of its start. `stop` ends them all and waits (at most `graceMs`, then kills).
 */
export interface ServingProcesses {
  /** Settles once every process started first listens (or ended, or 60 s passed: logged, never thrown). */
  ready: Promise<void>;
  stop(graceMs: number): Promise<void>;
  /** Process ids of the running ones (tests end one to see it come back). */
  pids(): number[];
}

export const SERVING_PROCESS_ENV = 'FOLIO_SERVING_PROCESS';
export const SERVING_PORT_ENV = 'FOLIO_SERVING_PORT';
export const PRIMARY_SOCKET_ENV = 'FOLIO_PRIMARY_SOCKET';

const FIRST_RESTART_MS = 1_000;
const LONGEST_RESTART_MS = 30_000;
const STEADY_MS = 60_000;
/** What a serving process sends its primary once it listens. */
export const READY_MESSAGE = 'folio-serving-ready';
const READY_WAIT_MS = 60_000;

export function startServingProcesses(count: number, port: number, primarySocket: string, logger: Logger): ServingProcesses {
  const running = new Map<number, ChildProcess>();
  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;

  function start(index: number, delayMs: number): Promise<void> {
    const startedAt = Date.now();
    const child = fork(process.argv[1]!, process.argv.slice(2), {
      env: { ...process.env, [SERVING_PROCESS_ENV]: String(index), [SERVING_PORT_ENV]: String(port), [PRIMARY_SOCKET_ENV]: primarySocket },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    running.set(index, child);
    const ready = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        logger.warn({ servingProcess: index, pid: child.pid }, 'a serving process is not listening after a minute: going on without waiting for it');
        resolve();
      }, READY_WAIT_MS);
      const settle = () => {
        clearTimeout(timer);
        resolve();
      };
      child.on('message', (message) => {
        if (message === READY_MESSAGE) settle();
      });
      child.once('exit', settle);
    });
    child.on('error', (error) => logger.error({ err: error, servingProcess: index }, 'a serving process could not be started'));
    child.on('exit', (code, signal) => {
      if (running.get(index) === child) running.delete(index);
      if (stopping) return;
      const steady = Date.now() - startedAt > STEADY_MS;
      const nextDelay = steady ? FIRST_RESTART_MS : Math.min(LONGEST_RESTART_MS, delayMs * 2);
      logger.error({ servingProcess: index, pid: child.pid, code, signal, restartInMs: nextDelay }, 'a serving process ended: starting it again');
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) void start(index, nextDelay);
      }, nextDelay);
      timers.add(timer);
    });
    return ready;
  }

  const first: Promise<void>[] = [];
  for (let index = 1; index <= count; index++) first.push(start(index, FIRST_RESTART_MS / 2));

  return {
    ready: Promise.all(first).then(() => undefined),
    pids: () => [...running.values()].flatMap((child) => (child.pid === undefined ? [] : [child.pid])),
    async stop(graceMs) {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      const ends = [...running.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      );
      await Promise.all(ends);
    },
  };
}
