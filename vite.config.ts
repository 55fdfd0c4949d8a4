import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { playwright } from '@vitest/browser-playwright';
import { chromiumExecutable, chromiumArgs } from './tests/chromium.ts';
import { localeNamesPlugin } from './locales/namesPlugin.ts';
import { bootEntryPlugin } from './build/bootEntry.ts';
import { readiumBundlePlugin } from './build/readiumBundle.ts';
import { CONTENT_SECURITY_POLICY, folioTestServer } from './tests/browser/support/folio-proxy.ts';
import type { SeedSeries } from './tests/browser/support/folio-commands.ts';
import type { BrowserCommandContext } from 'vitest/node';

/** Loaded when a browser test first calls one: they write archives (sharp), which builds never need. */
const browserCommands = () => import('./tests/browser/support/folio-commands.ts');

const apiTarget = process.env.FOLIO_API ?? 'http://localhost:25600';

/** Packages the browser tests load; listed so Vite bundles them before the first test runs. */
const BROWSER_DEPENDENCIES = [
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-dom',
  'react-dom/client',
  'wouter',
  'wouter/memory-location',
  'valtio',
  'ky',
  'rosetta',
  'comlink',
  '@tanstack/react-virtual',
  '@use-gesture/react',
  'lucide-react',
  'axe-core',
];

export default defineConfig({
  plugins: [react(), vanillaExtractPlugin(), localeNamesPlugin(), bootEntryPlugin(import.meta.dirname), readiumBundlePlugin()],
  // Relative file URLs: one build serves any --base-path (the server writes the prefix into index.html,
  // server/http/client-page.ts); chunks, workers and styles find each other from their own URLs.
  base: './',
  worker: { format: 'es' },
  build: { outDir: 'dist', sourcemap: true, target: 'es2023' },
  // In development the client talks to a running Folio (or Komga) server through the dev proxy. Not
  // under Vitest: the browser tests talk to the server their run starts (tests/browser/support/).
  server: process.env.VITEST ? {} : {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/sse': { target: apiTarget, changeOrigin: true },
      '/opds': { target: apiTarget, changeOrigin: true },
      '/actuator': { target: apiTarget, changeOrigin: true },
      '/oauth2': { target: apiTarget, changeOrigin: true },
      '/login/oauth2': { target: apiTarget, changeOrigin: true },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        plugins: [folioTestServer()],
        server: { headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
        // Pre-bundle up front: a dependency discovered mid-run makes Vite reload the test iframe.
        optimizeDeps: { include: BROWSER_DEPENDENCIES },
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.{ts,tsx}'],
          globalSetup: ['tests/browser/support/folio-global-setup.ts'],
          setupFiles: ['tests/browser/support/setup.ts'],
          browser: {
            commands: {
              seedLibrary: async (context: BrowserCommandContext, name: string, series: SeedSeries[]) =>
                (await browserCommands()).seedLibrary(context, name, series),
              makeFolder: async (context: BrowserCommandContext, name: string) => (await browserCommands()).makeFolder(context, name),
              writeImportFolder: async (context: BrowserCommandContext, name: string, books: SeedSeries['books'], broken: string[]) =>
                (await browserCommands()).writeImportFolder(context, name, books, broken),
              failRequests: async (context: BrowserCommandContext, pattern: string, status: number, body: string, method?: string) =>
                (await browserCommands()).failRequests(context, pattern, status, body, method),
              restoreRequests: async (context: BrowserCommandContext, pattern: string, method?: string) =>
                (await browserCommands()).restoreRequests(context, pattern, method),
              failedRequests: async (context: BrowserCommandContext, pattern: string, method?: string) =>
                (await browserCommands()).failedRequests(context, pattern, method),
              logInElsewhere: async (context: BrowserCommandContext, email: string, password: string) =>
                (await browserCommands()).logInElsewhere(context, email, password),
              actAs: async (context: BrowserCommandContext, token: string | null) => (await browserCommands()).actAs(context, token),
              callFromNode: async (context: BrowserCommandContext, method: string, path: string, body?: string, token?: string) =>
                (await browserCommands()).callFromNode(context, method, path, body, token),
            },
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
