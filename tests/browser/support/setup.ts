import { afterEach } from 'vitest';

/**
 * Runs before every browser test file. The page's Content-Security-Policy (folio-proxy.ts) refuses
 * any request to another origin; this turns each refusal into the failure of the test that made
 * it, naming the address, instead of a request that quietly went nowhere.
 */
const refused: string[] = [];
document.addEventListener('securitypolicyviolation', (event) => {
  refused.push(`${event.effectiveDirective}: ${event.blockedURI}`);
});

afterEach(() => {
  if (refused.length === 0) return;
  const list = refused.splice(0).join(', ');
  throw new Error(`The test sent requests to a server it did not start (only this page's origin is allowed): ${list}`);
});
