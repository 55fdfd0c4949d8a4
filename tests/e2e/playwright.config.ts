import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from '../chromium.ts';

/**
 * End-to-end tests: the built client (dist/) served by the real server, started by each spec on a
 * free port with a temporary data directory, driven in real Chromium.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Specs run two at a time (each starts its own server on port 0 with its own data folder, so they
  // share nothing); the tests of one spec run in order, sharing that spec's server and library.
  fullyParallel: false,
  workers: 2,
  // A failed test is run once more and, if it then passes, reported as flaky (listed in the output)
  // rather than failing the run: two specs at a time on two cores make timing races likelier, and
  // each one found is fixed in its spec. A test that fails twice still fails the run.
  retries: 1,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '../../test-results',
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
  },
});
