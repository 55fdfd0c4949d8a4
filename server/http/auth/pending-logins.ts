import { addressGroup } from './address-group.ts';

/** What the callback needs to finish a login started by the same browser. */
export interface PendingLogin {
  registrationId: string;
  codeVerifier: string;
  /** Only for OpenID providers: the id_token must carry it back. */
  nonce?: string;
  redirectUri: string;
  expires: number;
}

interface Entry {
  login: PendingLogin;
  group: string;
}

const STATE_TTL_MS = 10 * 60_000;
/** Logins one address (an IPv6 /64) may have in progress: a few tabs or devices, not a flood. */
export const MAX_PENDING_PER_ADDRESS = 10;
/** Logins in progress in all (a few hundred bytes each). */
export const MAX_PENDING = 10_000;

/**
 * Logins between the redirect to the provider and its callback, keyed by state. Anyone may start
 * one, so the store is bounded twice: an address (an IPv6 /64, see address-group.ts) that starts
 * more than MAX_PENDING_PER_ADDRESS loses its own oldest, and when MAX_PENDING is reached the oldest
 * login of the address holding the most goes. A flood thus only ever pushes out its own logins, or
 * those of addresses holding as many as it does; a user with a login or two in progress keeps them.
 * (Before, the whole store was cleared past 10,000 entries: one address could cancel everyone's.)
 */
export class PendingLogins {
  /** By state, oldest first (every entry lives STATE_TTL_MS, so this is also expiry order). */
  private readonly byState = new Map<string, Entry>();
  /** States per address group, oldest first. */
  private readonly byGroup = new Map<string, string[]>();
  private readonly perAddress: number;
  private readonly total: number;

  constructor(limits: { perAddress?: number; total?: number } = {}) {
    this.perAddress = limits.perAddress ?? MAX_PENDING_PER_ADDRESS;
    this.total = limits.total ?? MAX_PENDING;
  }

  get size(): number {
    return this.byState.size;
  }

  add(state: string, login: Omit<PendingLogin, 'expires'>, ip: string, now = Date.now()): void {
    this.dropExpired(now);
    const group = addressGroup(ip);
    const states = this.byGroup.get(group) ?? [];
    while (states.length >= this.perAddress) this.remove(states[0]!);
    if (this.byState.size >= this.total) this.remove(this.oldestOfLargestGroup());
    this.byState.set(state, { login: { ...login, expires: now + STATE_TTL_MS }, group });
    const current = this.byGroup.get(group) ?? [];
    current.push(state);
    this.byGroup.set(group, current);
  }

  /** The pending login for this state (used once), or undefined when unknown or expired. */
  take(state: string, now = Date.now()): PendingLogin | undefined {
    const entry = this.byState.get(state);
    if (!entry) return undefined;
    this.remove(state);
    return entry.login.expires >= now ? entry.login : undefined;
  }

  private dropExpired(now: number): void {
    for (const [state, entry] of this.byState) {
      if (entry.login.expires >= now) break;
      this.remove(state);
    }
  }

  private oldestOfLargestGroup(): string {
    let largest: string[] = [];
    for (const states of this.byGroup.values()) if (states.length > largest.length) largest = states;
    return largest[0]!;
  }

  private remove(state: string): void {
    const entry = this.byState.get(state);
    if (!entry) return;
    this.byState.delete(state);
    const states = this.byGroup.get(entry.group);
    if (!states) return;
    states.splice(states.indexOf(state), 1);
    if (states.length === 0) this.byGroup.delete(entry.group);
  }
}
