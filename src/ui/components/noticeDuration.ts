/**
 * How long a notice that goes by itself stays on screen: long enough to read it. A fixed few
 * seconds cut a long message (a refused reading position with its reason, a translated sentence
 * half again as long as the English) before it could be read. Reading speed is taken as a slow
 * reader's, about 15 characters a second, after a moment to notice it; never less than the
 * screen's own minimum, never more than NOTICE_MAX_MS (a notice is not a dialog: one that must
 * stay is shown some other way). While it is hovered or focused it does not go (useTimedMessage).
 */
export const NOTICE_NOTICED_MS = 1_500;
export const NOTICE_MS_PER_CHARACTER = 65;
export const NOTICE_MAX_MS = 30_000;

export function noticeDuration(text: string, minimumMs: number): number {
  // Characters as read (a surrogate pair or an accented letter once), not UTF-16 units.
  const characters = [...text.normalize('NFC')].length;
  return Math.min(NOTICE_MAX_MS, Math.max(minimumMs, NOTICE_NOTICED_MS + characters * NOTICE_MS_PER_CHARACTER));
}
