import { describe, expect, it } from 'vitest';
import { SearchConditionError } from '../../../server/db/search/conditions.ts';
import { MAX_QUERY_DEPTH, parseSearchQuery } from '../../../server/db/search/search-query.ts';

// The search box's query language (server/db/search/search-query.ts), read without a database.
describe('parseSearchQuery', () => {
  it('words are all required; OR binds looser than the implicit AND', () => {
    expect(parseSearchQuery('batman robin')).toEqual({ kind: 'and', nodes: [{ kind: 'text', text: 'batman' }, { kind: 'text', text: 'robin' }] });
    expect(parseSearchQuery('a b OR c')).toEqual({
      kind: 'or',
      nodes: [{ kind: 'and', nodes: [{ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }] }, { kind: 'text', text: 'c' }],
    });
  });

  it('phrases, fields, negation and ranges', () => {
    expect(parseSearchQuery('"white knight" -publisher:dc writer:"rick r"')).toEqual({
      kind: 'and',
      nodes: [
        { kind: 'text', text: 'white knight' },
        { kind: 'not', node: { kind: 'text', field: 'publisher', text: 'dc' } },
        { kind: 'text', field: 'writer', text: 'rick r' },
      ],
    });
    // A colon that ends a word names no field: "Batman: Year One" keeps its first word.
    expect(parseSearchQuery('Batman: Year')).toEqual({ kind: 'and', nodes: [{ kind: 'text', text: 'Batman:' }, { kind: 'text', text: 'Year' }] });
    expect(parseSearchQuery('release_date:[1990 TO *]')).toEqual({ kind: 'range', field: 'release_date', from: '1990', to: undefined });
  });

  it('reads what it can of broken text instead of refusing it', () => {
    expect(parseSearchQuery('"unclosed phrase')).toEqual({ kind: 'text', text: 'unclosed phrase' });
    expect(parseSearchQuery('(a OR b')).toEqual({ kind: 'or', nodes: [{ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }] });
    expect(parseSearchQuery('a) b')).toEqual({ kind: 'and', nodes: [{ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }] });
    expect(parseSearchQuery('AND OR NOT')).toBeUndefined();
    expect(parseSearchQuery('*:*')).toBeUndefined();
    expect(parseSearchQuery('   ')).toBeUndefined();
  });

  it('refuses nesting deeper than it compiles', () => {
    expect(() => parseSearchQuery(`${'('.repeat(MAX_QUERY_DEPTH + 2)}a`)).toThrow(SearchConditionError);
    expect(() => parseSearchQuery(`${'NOT '.repeat(MAX_QUERY_DEPTH + 2)}a`)).toThrow(SearchConditionError);
    expect(parseSearchQuery(`${'('.repeat(4)}a${')'.repeat(4)}`)).toEqual({ kind: 'text', text: 'a' });
  });
});
