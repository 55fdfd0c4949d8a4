import { describe, expect, it } from 'vitest';
import * as stored from '../../../server/db/stored-values.ts';
import * as wire from '../../../src/api/types.ts';

// The database keeps its own enumerations; the DTO mappers pass them to the wire unchanged, so each
// must hold exactly the values of the Komga contract's matching enumeration.
describe('stored enumerations match the wire', () => {
  it.each([
    ['media statuses', stored.MEDIA_STATUSES, wire.MEDIA_STATUSES],
    ['reading directions', stored.READING_DIRECTIONS, wire.READING_DIRECTIONS],
    ['series statuses', stored.SERIES_STATUSES, wire.SERIES_STATUSES],
    ['series covers', stored.SERIES_COVERS, wire.SERIES_COVERS],
    ['scan intervals', stored.SCAN_INTERVALS, wire.SCAN_INTERVALS],
    ['granted roles', stored.GRANTED_ROLES, wire.ROLES],
  ])('%s', (_name, ours, theirs) => {
    expect([...ours]).toEqual([...theirs]);
  });
});
