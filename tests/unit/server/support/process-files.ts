import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';

/** Whether util-linux's prlimit is here, to lower a process's file-size limit (a disk that fills up). */
export const hasPrlimit = (() => {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return false;
  }
})();

/** Descriptors of this process (its worker threads' included) open on `path`. */
export function descriptorsOn(path: string): string[] {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch (error) {
      // Closed between the listing and the look (the listing's own descriptor, for one).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  });
}
