import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux everywhere Folio is measured). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system, every thread) used so far by a process and every process under it
 * (Linux /proc): what a server costs whether it runs as one process or several (Folio's serving
 * processes, nginx's workers). Ended children are not counted: measure differences over a window
 * in which none ends.
 */
export async function treeCpuSeconds(pid: number): Promise<number> {
  let ticks = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const stat = await readFile(`/proc/${next}/stat`, 'utf8').catch((error: NodeJS.ErrnoException) => {
      // Ended between being listed and read: it counts for nothing.
      if (error.code === 'ENOENT' || error.code === 'ESRCH') return undefined;
      throw error;
    });
    if (stat === undefined) continue;
    // Fields after the command name (which may hold spaces and parentheses): utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
    const children = await readFile(`/proc/${next}/task/${next}/children`, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ESRCH') return '';
      throw error;
    });
    for (const child of children.trim().split(/\s+/).filter(Boolean)) pending.push(Number(child));
  }
  return ticks / TICKS_PER_SECOND;
}
