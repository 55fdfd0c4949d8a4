import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Tests never sleep a fixed time: a test that waits 500 ms and then asserts that something did not
 * happen passes whether or not it would have happened at 600 ms. Waits are for a condition (polling
 * with a time limit), for the event that would have happened, or on fake timers. The polling
 * helper is the one file allowed to set a timer to wait.
 */
const TESTS = join(import.meta.dirname, '..');
const REPOSITORY = join(TESTS, '..');
// This file's own samples are data, not waits.
const ALLOWED = new Set(['tests/support/poll.ts', 'tests/unit/no-fixed-sleeps.test.ts']);

/** What a fixed sleep looks like, whatever the resolver is called. */
const SLEEPS: [what: string, pattern: RegExp][] = [
  ["Playwright's waitForTimeout", /\bwaitForTimeout\s*\(/],
  ['a timer that resolves a promise', /\bsetTimeout\s*\(\s*[A-Za-z_$][\w$]*\s*,/],
  ['a timer whose callback only resolves', /\bsetTimeout\s*\(\s*\(\s*\)\s*=>\s*[A-Za-z_$][\w$]*\s*\(\s*\)\s*,/],
  ["Node's promise timers", /['"](node:)?timers\/promises['"]/],
  ['the scheduler\'s wait', /\bscheduler\s*\.\s*wait\s*\(/],
];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

function sleepsIn(text: string): string[] {
  return text.split('\n').flatMap((line, index) =>
    SLEEPS.filter(([, pattern]) => pattern.test(line)).map(([what]) => `line ${index + 1}: ${what}: ${line.trim()}`),
  );
}

describe('no fixed sleeps in tests', () => {
  it('recognises the forms a sleep takes', () => {
    const samples = [
      'await page.waitForTimeout(1500);',
      'await new Promise((resolve) => setTimeout(resolve, 500));',
      'await new Promise((r) => setTimeout(r, 5));',
      'await new Promise((done) => setTimeout(() => done(), 100));',
      "import { setTimeout as sleep } from 'node:timers/promises';",
      'await scheduler.wait(200);',
    ];
    for (const sample of samples) expect(sleepsIn(sample), sample).toHaveLength(1);
    // Time limits and polling are not sleeps.
    expect(sleepsIn("const timer = setTimeout(() => reject(new Error('late')), 30_000);")).toEqual([]);
    expect(sleepsIn('await expect.poll(() => count(), { timeout: 5_000 }).toBe(2);')).toEqual([]);
  });

  it('finds none outside the polling helper', () => {
    const found = sourceFiles(TESTS)
      .map((path) => relative(REPOSITORY, path))
      .filter((path) => !ALLOWED.has(path))
      .flatMap((path) => sleepsIn(readFileSync(join(REPOSITORY, path), 'utf8')).map((sleep) => `${path} ${sleep}`));
    expect(found).toEqual([]);
  });
});
