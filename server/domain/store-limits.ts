/**
 * Bounds on every store a user can write to (README "Security"): before these, a plain user stored
 * 139 MB of client settings in 1.6 s. Exceeding one is the caller's mistake: a 400 naming the limit.
 * Read progress needs none of its own (one row per book and user); uploaded posters are admin-only
 * but still bounded per series or book.
 */
export const STORE_LIMITS = {
  clientSettings: {
    keyLength: 256,
    valueBytes: 64 * 1024,
    /** Keys per scope (one user, or the global settings). */
    keysPerScope: 200,
    bytesPerScope: 1024 * 1024,
    /** All scopes together. */
    bytesOverall: 64 * 1024 * 1024,
  },
  /** One R2 locator (JSON) and the device fields beside it. */
  progression: { locatorBytes: 16 * 1024, deviceFieldLength: 256 },
  apiKeys: { perUser: 50, commentLength: 200 },
  uploadedPosters: { perItem: 20 },
  /**
   * Live sessions per user. Every login, and every request carrying only a remember-me cookie,
   * opens one; without a bound a user could add rows as fast as requests arrive (no password check
   * on remember-me). Past the bound the user's least recently used sessions end.
   */
  sessions: { perUser: 100 },
} as const;

export class StoreLimitExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreLimitExceeded';
  }
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Checks client settings about to be saved into a scope that holds `current` (key → value). */
export function checkClientSettings(
  current: Map<string, string>,
  incoming: [key: string, value: string][],
  overallBytes: number,
): void {
  const limits = STORE_LIMITS.clientSettings;
  const after = new Map(current);
  for (const [key, value] of incoming) {
    if (key.length > limits.keyLength) throw new StoreLimitExceeded(`Setting keys are limited to ${limits.keyLength} characters`);
    if (bytes(value) > limits.valueBytes) throw new StoreLimitExceeded(`${key}: a setting value is limited to ${limits.valueBytes} bytes`);
    after.set(key, value);
  }
  if (after.size > limits.keysPerScope) throw new StoreLimitExceeded(`At most ${limits.keysPerScope} settings may be stored`);
  const size = (entries: Map<string, string>) => [...entries].reduce((sum, [k, v]) => sum + bytes(k) + bytes(v), 0);
  const scopeBytes = size(after);
  if (scopeBytes > limits.bytesPerScope) throw new StoreLimitExceeded(`Settings are limited to ${limits.bytesPerScope} bytes in all`);
  if (overallBytes - size(current) + scopeBytes > limits.bytesOverall) throw new StoreLimitExceeded('The server holds as many client settings as it accepts');
}

/** Checks an R2 progression before it is stored. */
export function checkProgression(locator: unknown, deviceId: string, deviceName: string): void {
  const limits = STORE_LIMITS.progression;
  if (deviceId.length > limits.deviceFieldLength || deviceName.length > limits.deviceFieldLength) {
    throw new StoreLimitExceeded(`device id and name are limited to ${limits.deviceFieldLength} characters`);
  }
  if (bytes(JSON.stringify(locator)) > limits.locatorBytes) throw new StoreLimitExceeded(`A locator is limited to ${limits.locatorBytes} bytes`);
}
