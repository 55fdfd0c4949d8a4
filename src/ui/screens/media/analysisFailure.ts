/**
 * What the media analysis screen says of an analysis that ended without recording anything
 * (TaskFailed AnalyzeBook), by the server's reason: the file changed or went, the tasks were
 * cancelled while it waited to be tried again, or any other failure (the server's log says why).
 */
export function analysisFailureKey(reason: unknown): string {
  if (reason === 'book-changed') return 'media.analysis.not_analysed_changed';
  if (reason === 'cancelled') return 'media.analysis.not_analysed_cancelled';
  return 'media.analysis.not_analysed';
}
