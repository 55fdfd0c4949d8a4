import { hash, randomBytes } from 'node:crypto';

/**
 * API keys (REFERENCE §1.6): 32 random bytes as hex, shown once. Only a sha256 is stored; the key
 * has full entropy, so a plain hash is enough and allows lookup by hash.
 */
export const API_KEY_HEADER = 'x-api-key';
export const REDACTED_KEY = '******';

export const newApiKey = () => randomBytes(32).toString('hex');
/** One-shot hashing: a key authenticates every request of its client, and a Hash object per request costs twice the time. */
export const hashApiKey = (key: string) => hash('sha256', key, 'hex');
