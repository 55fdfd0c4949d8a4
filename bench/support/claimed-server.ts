/**
 * For the EPUB benches: claims a fresh Folio server with a bench account and adds one library, then
 * calls it with that account's Basic credentials (an HTTP failure throws, naming the path).
 */
const EMAIL = 'bench@example.org';
const PASSWORD = 'bench-password';

export interface ClaimedServer {
  /** Headers of the bench account's calls: Basic credentials, and the header Folio's CSRF guard wants. */
  auth: Record<string, string>;
  call: (path: string, init?: RequestInit) => Promise<Response>;
}

export async function claimWithLibrary(url: string, root: string): Promise<ClaimedServer> {
  const auth = { Authorization: `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`, 'X-Requested-With': 'XMLHttpRequest' };
  const claim = await fetch(`${url}/api/v1/claim`, { method: 'POST', headers: { 'X-Komga-Email': EMAIL, 'X-Komga-Password': PASSWORD } });
  if (!claim.ok) throw new Error(`claim: ${claim.status}`);
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}${path}`, { ...init, headers: { ...auth, 'content-type': 'application/json', ...init.headers } });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return response;
  };
  await call('/api/v1/libraries', { method: 'POST', body: JSON.stringify({ name: 'Books', root }) });
  return { auth, call };
}
