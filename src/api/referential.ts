import { ApiError, getJson } from './http.ts';

/**
 * Values a series filter can take in the given libraries (REFERENCE §7 "Referential data"). Tags are
 * the series' and their books' together, as Komga's series tag filter matches either.
 */
export const REFERENTIAL_LISTS = {
  genre: '/api/v1/genres',
  tag: '/api/v1/tags',
  publisher: '/api/v1/publishers',
  language: '/api/v1/languages',
  ageRating: '/api/v1/age-ratings',
  releaseYear: '/api/v1/series/release-dates',
  author: '/api/v2/authors/names',
} as const;
export type ReferentialKind = keyof typeof REFERENTIAL_LISTS;

/** What a pick list is narrowed to: libraries, a collection's series or a read list's books. */
export interface ReferentialScope {
  library_id?: string[];
  collection_id?: string;
  readlist_id?: string;
}

/**
 * The list, or null when the server does not offer it. `bookTags` asks for the tags of books only
 * (a read list's filter, which matches book tags).
 */
export async function getReferentialValues(
  kind: ReferentialKind,
  scope: ReferentialScope,
  options: { bookTags?: boolean } = {},
): Promise<string[] | null> {
  const path = kind === 'tag' && options.bookTags ? '/api/v1/tags/book' : REFERENTIAL_LISTS[kind];
  try {
    // v1 lists answer a bare array, v2 lists a page: take either, all of it.
    const answer = await getJson<unknown[] | { content: unknown[] }>(path, 'retrieve_filter_values', {
      query: { ...scope, unpaged: true },
    });
    const values = Array.isArray(answer) ? answer : answer.content;
    // Release dates come as dates; the filter works on years.
    const strings = values.map(String);
    return kind === 'releaseYear' ? [...new Set(strings.map((d) => d.slice(0, 4)))].sort().reverse() : strings;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
