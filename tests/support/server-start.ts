/**
 * How long a test waits for a spawned `node server/main.ts` to print its address. A start takes
 * 2 s on a quiet machine and 15–26 s at load 15 (CI's machine may be that busy); past this limit
 * the server is taken for hung and reported with what it printed. Below Playwright's 90 s hook
 * budget, so the report is this one and not a bare timeout.
 */
export const SERVER_START_LIMIT_MS = 75_000;
