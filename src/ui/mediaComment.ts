import { formatBytes, formatNumber } from './format.ts';
import { explainErrorCodes, t } from './i18n.ts';

/*
 * The server's words when it skipped a ComicInfo.xml (server/domain/metadata/metadata-import.ts:
 * COMICINFO_SKIPPED, then MalformedComicInfoError's message): not well-formed at a line, larger than
 * the import reads, or refused before a line was known (a parse that took too long: "line 0").
 */
const COMICINFO_SKIPPED = /ComicInfo\.xml skipped: ComicInfo\.xml is (.*)$/s;
const AT_LINE = /^not well-formed \(line ([1-9]\d*)\)/;
const TOO_LARGE = /^larger than (\d+) bytes/;

/** The skipped-ComicInfo warning's detail (after "ComicInfo.xml is") in the reader's language. */
function comicInfoSkipped(detail: string): string {
  const line = AT_LINE.exec(detail)?.[1];
  if (line) return t('media_comment.comicinfo_skipped', { line: formatNumber(Number(line)) });
  const bytes = TOO_LARGE.exec(detail)?.[1];
  if (bytes) return t('media_comment.comicinfo_too_large', { size: formatBytes(Number(bytes)) });
  return t('media_comment.comicinfo_unreadable');
}

/**
 * Analysis comments carry ERR_dddd codes; each becomes its localised meaning (REFERENCE §8). A
 * skipped-ComicInfo warning becomes a localised sentence (its English detail is in the server's log).
 */
export function explainMediaComment(comment: string): string {
  return explainErrorCodes(
    comment.replace(COMICINFO_SKIPPED, (_all, detail: string) => comicInfoSkipped(detail)),
  );
}
