/**
 * A URL fragment as the document's ids spell it: percent-decoded, or as written when it is not
 * valid percent-encoding (books do contain `#note%` and the like, and must still find their anchor).
 */
export function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch (error) {
    if (error instanceof URIError) return fragment;
    throw error;
  }
}
