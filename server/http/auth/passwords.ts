import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (memory-hard, ~tens of ms per check).
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2 /* Argon2id */ });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch (error) {
    // argon2 rejects a stored hash it cannot parse (an account without a usable password, e.g.
    // created through OAuth2): that is a failed check, not a server error.
    if (!(error instanceof Error)) throw error;
    return false;
  }
}
