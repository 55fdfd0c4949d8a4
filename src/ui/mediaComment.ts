import { explainErrorCodes, t } from './i18n.ts';

/** The server's words when it skipped a malformed ComicInfo.xml (server/domain/metadata-import.ts). */
const COMICINFO_SKIPPED = /ComicInfo\.xml skipped: ComicInfo\.xml is not well-formed \(line (\d+)\): .*$/;

/**
 * Analysis comments carry ERR_dddd codes; each becomes its localised meaning (REFERENCE §8). The
 * skipped-ComicInfo warning becomes a localised sentence with its line number.
 */
export function explainMediaComment(comment: string): string {
  return explainErrorCodes(
    comment.replace(COMICINFO_SKIPPED, (_all, line: string) => t('media_comment.comicinfo_skipped', { line })),
  );
}
