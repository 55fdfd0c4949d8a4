import { describe, expect, it } from 'vitest';
import { MAX_READLIST_FILE_BYTES } from '../../../server/http/routes/readlist-import-routes.ts';
import { READ_LIST_FILE_MAX_MB } from '../../../src/api/readListImport.ts';

/** The import screen refuses and names the limit the server enforces: the two must not drift apart. */
describe('ComicRack read list size limit', () => {
  it('is the same on the server and in the web client', () => {
    expect(MAX_READLIST_FILE_BYTES).toBe(READ_LIST_FILE_MAX_MB * 1024 * 1024);
  });
});
