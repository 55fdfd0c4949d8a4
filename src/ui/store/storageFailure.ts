/**
 * The ways browser storage is expected to fail: unavailable or full (a DOMException such as
 * SecurityError in some private modes, QuotaExceededError) or holding text that is not JSON
 * (SyntaxError). Anything else is a bug worth a console line.
 */
export function isStorageFailure(error: unknown): boolean {
  return error instanceof DOMException || error instanceof SyntaxError;
}

/** Handles a storage failure: the expected kinds quietly, anything else with a warning that says what was being done. */
export function reportStorageFailure(doing: string, error: unknown): void {
  if (!isStorageFailure(error)) console.warn(`${doing} failed unexpectedly`, error);
}
