import { promises as fsPromises } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SeriesJsonReads } from '../../../server/domain/metadata/series-json-reads.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-series-json-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
  await rm(dir, { recursive: true, force: true });
});

/** The real open, counted (node's module exports follow their objects once synced). */
function countReads(): () => number {
  const readFile = vi.spyOn(fsPromises, 'open');
  syncBuiltinESMExports();
  return () => readFile.mock.calls.length;
}

describe('SeriesJsonReads', () => {
  it('reads a file once for tasks that ask for it at the same time', async () => {
    const path = join(dir, 'series.json');
    await writeFile(path, '{"version":"1.0.2"}');
    const reads = new SeriesJsonReads();
    const count = countReads();
    // The books of a series analysed side by side: all ask before any read has ended.
    const texts = await Promise.all(Array.from({ length: 8 }, () => reads.read(path, dir)));
    expect(texts).toEqual(Array(8).fill('{"version":"1.0.2"}'));
    expect(count()).toBe(1);
  });

  it('reads it again once it changed', async () => {
    const path = join(dir, 'series.json');
    await writeFile(path, '{"version":"1.0.2"}');
    const reads = new SeriesJsonReads();
    const count = countReads();
    expect(await reads.read(path, dir)).toBe('{"version":"1.0.2"}');
    await writeFile(path, '{"version":"1.0.2","edited":true}');
    expect(await Promise.all([reads.read(path, dir), reads.read(path, dir)])).toEqual(Array(2).fill('{"version":"1.0.2","edited":true}'));
    expect(count()).toBe(2);
  });
});
