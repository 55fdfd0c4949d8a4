import { addressGroup } from './address-group.ts';

/**
 * Brute-force slowdown. Failed logins are counted per client address (an IPv6 /64 counts as one,
 * address-group.ts) and per account; after a few free failures each further attempt waits longer
 * (doubling), up to a small cap, so guessing gets slow while the rightful user is at worst delayed a
 * few seconds and never locked out. Counters are forgotten after a quiet period; an account's
 * counter also resets on a successful login.
 */
export interface ThrottleOptions {
  /** Failures allowed before any delay. */
  freeFailures: number;
  /** First delay, doubled for each further failure. */
  baseDelayMs: number;
  /** Cap for an address (an attacker's own source). */
  maxAddressDelayMs: number;
  /** Lower cap for an account, which others can make fail on purpose. */
  maxAccountDelayMs: number;
  /** Counters older than this are forgiven. */
  quietPeriodMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  freeFailures: 3,
  baseDelayMs: 250,
  maxAddressDelayMs: 4000,
  maxAccountDelayMs: 2000,
  quietPeriodMs: 15 * 60_000,
};

interface Counter {
  failures: number;
  last: number;
}

const MAX_TRACKED = 10_000;

export class LoginThrottle {
  /** Password guesses, one account at a time. */
  readonly accountQueue = new KeyedSerializer();
  /**
   * Password checks, one client address at a time: guesses spread over many e-mails (distinct
   * accounts never share a queue) would otherwise each wait out the address's delay side by side,
   * so an anonymous flood ran as many argon2 checks at once as it had connections.
   */
  readonly addressQueue = new KeyedSerializer(8, addressGroup);
  /** Bad API keys and bad remember-me cookies, one client address at a time. */
  readonly badTokenQueue = new KeyedSerializer(8, addressGroup);
  private readonly options: ThrottleOptions;
  private readonly addresses = new Map<string, Counter>();
  private readonly accounts = new Map<string, Counter>();

  constructor(options: ThrottleOptions = DEFAULT_THROTTLE) {
    this.options = options;
  }

  /** How long an attempt from this address for this account should wait before being checked. */
  delayFor(ip: string, email: string, now = Date.now()): number {
    const o = this.options;
    const byAddress = this.delay(this.count(this.addresses, addressGroup(ip), now), o.maxAddressDelayMs);
    const byAccount = this.delay(this.count(this.accounts, email.toLowerCase(), now), o.maxAccountDelayMs);
    return Math.max(byAddress, byAccount);
  }

  failed(ip: string, email: string, now = Date.now()): void {
    this.bump(this.addresses, addressGroup(ip), now);
    this.bump(this.accounts, email.toLowerCase(), now);
  }

  /**
   * A correct password clears the account's counter. The address's counter only fades with time,
   * so an attacker cannot reset it by logging into an account of their own between guesses.
   */
  succeeded(email: string): void {
    this.accounts.delete(email.toLowerCase());
  }

  private delay(failures: number, cap: number): number {
    const over = failures - this.options.freeFailures;
    if (over < 0) return 0;
    return Math.min(cap, this.options.baseDelayMs * 2 ** over);
  }

  private count(map: Map<string, Counter>, key: string, now: number): number {
    const counter = map.get(key);
    if (!counter) return 0;
    if (now - counter.last > this.options.quietPeriodMs) {
      map.delete(key);
      return 0;
    }
    return counter.failures;
  }

  private bump(map: Map<string, Counter>, key: string, now: number): void {
    const failures = this.count(map, key, now) + 1;
    // A flood of distinct addresses must not grow memory without bound: forget the oldest.
    if (!map.has(key) && map.size >= MAX_TRACKED) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.delete(key);
    map.set(key, { failures, last: now });
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Too many attempts are already waiting for this account or address: answered 429 at once. */
export class TooManyAttempts extends Error {
  constructor() {
    super('Too many authentication attempts in progress, try again later');
    this.name = 'TooManyAttempts';
  }
}

/**
 * Runs tasks with the same key one after another. Guesses on one account (or bad API keys from one
 * address) then each see the failures of the ones before, so sending them in parallel gains nothing
 * over sending them in turn. A key with `maxWaiting` tasks already queued refuses more at once, so a
 * flood neither grows memory nor makes the rightful user wait behind it for minutes.
 */
export class KeyedSerializer {
  private readonly queues = new Map<string, { tail: Promise<void>; waiting: number }>();
  private readonly maxWaiting: number;
  private readonly keyOf: (key: string) => string;

  /** `keyOf` maps a key to the one it shares a queue with (client addresses: addressGroup, an IPv6 /64). */
  constructor(maxWaiting = 8, keyOf: (key: string) => string = (key) => key) {
    this.maxWaiting = maxWaiting;
    this.keyOf = keyOf;
  }

  run<T>(rawKey: string, task: () => Promise<T>): Promise<T> {
    const key = this.keyOf(rawKey);
    const queue = this.queues.get(key) ?? { tail: Promise.resolve(), waiting: 0 };
    if (queue.waiting >= this.maxWaiting) return Promise.reject(new TooManyAttempts());
    queue.waiting++;
    this.queues.set(key, queue);
    const result = queue.tail.then(task);
    queue.tail = result.then(
      () => this.settled(key, queue),
      () => this.settled(key, queue),
    );
    return result;
  }

  private settled(key: string, queue: { waiting: number }): void {
    queue.waiting--;
    if (queue.waiting === 0 && this.queues.get(key) === queue) this.queues.delete(key);
  }
}
