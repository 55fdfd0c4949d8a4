import { sendForm } from './http.ts';

/**
 * The largest ComicRack list the server accepts (server/http/routes/readlist-import-routes.ts
 * MAX_READLIST_FILE_BYTES; a unit test keeps the two equal). The import screen refuses a bigger file
 * before sending it and names the limit (SPEC §5).
 */
export const READ_LIST_FILE_MAX_MB = 5;

export interface ReadListImportBook {
  bookId: string;
  number: string;
  title: string;
}

export interface ReadListImportMatch {
  series: { seriesId: string; title: string; releaseDate?: string | null };
  books: ReadListImportBook[];
}

export interface ReadListImportRequest {
  request: { series: string[]; number: string };
  matches: ReadListImportMatch[];
  errorCode: string;
}

export interface ReadListImportResult {
  readListMatch: { name: string; errorCode: string };
  requests: ReadListImportRequest[];
  errorCode: string;
}

/** Matches a ComicRack .cbl list against the libraries; nothing is created yet. */
export function matchComicRackList(file: File): Promise<ReadListImportResult> {
  const form = new FormData();
  form.append('file', file);
  return sendForm('POST', '/api/v1/readlists/match/comicrack', 'match_readlist', form);
}
