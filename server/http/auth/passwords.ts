import { hash, verify } from '@node-rs/argon2';
import { TooManyAttempts } from './login-throttle.ts';

/**
 * argon2 checks running at once, server-wide. They run on libuv's thread pool (four threads by
 * default), which file reads share: sixteen checks at once made a file stat wait about a second,
 * so guesses sent from many addresses at once (the /64s of one IPv6 /48, whose per-address queues
 * are all separate) stalled every page and poster. One at a time is ~35 checks a second.
 */
export const MAX_PASSWORD_CHECKS_RUNNING = 1;
/** Checks waiting for their turn; past this a guess is refused (429) without being checked. */
export const MAX_PASSWORD_CHECKS_WAITING = 64;

/** Runs argon2 work one job at a time; `bounded` jobs are refused when the queue is full. */
class PasswordWork {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  async run<T>(task: () => Promise<T>, bounded: boolean): Promise<T> {
    if (this.running < MAX_PASSWORD_CHECKS_RUNNING) {
      this.running++;
    } else {
      if (bounded && this.waiting.length >= MAX_PASSWORD_CHECKS_WAITING) throw new TooManyAttempts();
      // The slot is handed over by the job that ends (running stays counted).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

const work = new PasswordWork();

// argon2id with the library's defaults (memory-hard, ~tens of ms per check). Hashing (new
// passwords: the claim, an admin, a signed-in user) waits its turn without a bound.
export function hashPassword(password: string): Promise<string> {
  return work.run(() => hash(password, { algorithm: 2 /* Argon2id */ }), false);
}

/**
 * Rejects with TooManyAttempts, unchecked, when too many checks are already waiting, unless
 * `waitWhenFull`: a check from an address that signed in to the account before (login-methods.ts)
 * waits its turn instead, so a flood of guesses from many addresses does not lock its owner out.
 */
export function verifyPassword(passwordHash: string, password: string, waitWhenFull = false): Promise<boolean> {
  return work.run(async () => {
    try {
      return await verify(passwordHash, password);
    } catch (error) {
      // argon2 rejects a stored hash it cannot parse (an account without a usable password, e.g.
      // created through OAuth2): that is a failed check, not a server error.
      if (!(error instanceof Error)) throw error;
      return false;
    }
  }, !waitWhenFull);
}
