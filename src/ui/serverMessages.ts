/*
 * A failed call's message, as the server writes it: an English sentence (the API keeps it, as
 * Komga's clients read the same field). The client shows the refusals a person can meet in its
 * screens in their language: this table reads each known sentence into a locale key, the variable
 * part (a folder, a limit, the value refused) captured and passed on. A sentence worded otherwise
 * (a newer server, Komga's own) is not read and is shown as sent.
 * No imports of i18n here, so the server's tests can check that every refusal they provoke is known
 * (tests/unit/server/server-messages-known.test.ts).
 */

/** One translatable sentence: its locale key, its parts, and the number choosing its plural form. */
export interface ServerMessagePart {
  key: string;
  params?: Record<string, string>;
  /** Set for a plural group (the key names it): the number of the sentence. */
  count?: number;
}

/** A known message: one part, or one per field a failed validation names. */
export interface ReadServerMessage {
  parts: ServerMessagePart[];
}

/** A shape of sentence: the captured groups become `names` (a name `count` is the plural's number). */
interface Shape {
  pattern: RegExp;
  key: string;
  names?: readonly string[];
  /** Parts the sentence implies (the claim's checks say a field's rule in a sentence of their own). */
  params?: Readonly<Record<string, string>>;
}

const SENTENCES: readonly Shape[] = [
  { pattern: /^A collection with this name already exists$/, key: 'server_messages.collection_name_taken' },
  { pattern: /^A read list with this name already exists$/, key: 'server_messages.readlist_name_taken' },
  { pattern: /^Library name already exists$/, key: 'server_messages.library_name_taken' },
  { pattern: /^This server has already been claimed$/, key: 'server_messages.already_claimed' },
  { pattern: /^(?:Path must be absolute|path must be an absolute folder path)$/, key: 'server_messages.path_not_absolute' },
  { pattern: /^Email must be a well-formed email address$/, key: 'server_messages.rules.email', params: { field: 'email' } },
  { pattern: /^Password must not be blank$/, key: 'server_messages.rules.blank', params: { field: 'password' } },
  { pattern: /^A library cannot be the root of the file system$/, key: 'server_messages.library_fs_root' },
  // (\x27 for the apostrophe: locales/usage.ts reads quoted texts of this file as keys.)
  { pattern: /^A library cannot hold Folio\x27s data directory$/, key: 'server_messages.library_holds_data_dir' },
  { pattern: /^A library cannot be inside Folio\x27s data directory$/, key: 'server_messages.library_in_data_dir' },
  { pattern: /^A library cannot be inside the system folder (.+)$/s, key: 'server_messages.library_in_system_folder', names: ['folder'] },
  { pattern: /^At most (\d+) API keys per user: delete one first$/, key: 'server_messages.api_key_limit', names: ['count'] },
  { pattern: /^Not Found$/, key: 'server_messages.not_found' },
  { pattern: /^Forbidden$/, key: 'server_messages.forbidden' },
  // login-throttle.ts: more sign-ins wait for this address or account than it admits (429).
  { pattern: /^Too many authentication attempts in progress, try again later$/, key: 'server_messages.too_many_attempts' },
  { pattern: /^Cannot modify your own user this way$/, key: 'server_messages.cannot_modify_self' },
  // errors.ts: another process holds the database's write lock, or its disk is full (503).
  { pattern: /^Not saved: the database is busy; try again later$/, key: 'server_messages.not_saved_busy' },
  { pattern: /^Not saved: the server is out of disk space; try again later$/, key: 'server_messages.not_saved_disk_full' },
  // errors.ts: a file the request asked to store (an uploaded poster) cannot be written in the data folder (503).
  { pattern: /^Not saved: the server cannot write its data folder; try again later$/, key: 'server_messages.not_saved_unwritable' },
  // errors.ts: a failure of the server's own (its details are in the server's log only).
  { pattern: /^Internal Server Error$/, key: 'server_messages.internal_error' },
  // errors.ts and connection-refusal.ts: no archive handle, descriptor or connection free just now (503).
  { pattern: /^Server busy(?:: too many connections)?, try again shortly$/, key: 'server_messages.server_busy' },
  { pattern: /^Reading this content took longer than the \d+ ms allowed; try again later$/, key: 'server_messages.read_timed_out' },
  { pattern: /^This content took longer than the \d+ ms allowed to read and is refused for a while; try again later$/, key: 'server_messages.read_refused_for_a_while' },
  // errors.ts: a damaged book or entry (422); the code's meaning stands for the English detail after it.
  { pattern: /^Book content cannot be read \((ERR_\d{4})\)(?:: .*)?$/s, key: 'server_messages.book_unreadable', names: ['reason'] },
  { pattern: /^File not found(?: \(ERR_\d{4}\)|, it may have moved)?$/, key: 'server_messages.file_not_found' },
  // book-readiness.ts: why a book's pages cannot be listed or served (its analysis status).
  { pattern: /^Book has not been analyzed yet$/, key: 'server_messages.book_not_analyzed' },
  { pattern: /^Book is outdated and must be re-analyzed$/, key: 'server_messages.book_outdated' },
  { pattern: /^Book analysis failed$/, key: 'server_messages.book_analysis_failed' },
  { pattern: /^Book format is not supported$/, key: 'server_messages.book_unsupported' },
  { pattern: /^Page number does not exist$/, key: 'server_messages.page_not_found' },
  // Poster uploads (poster-uploads.ts, thumbnail-routes.ts, and @fastify/multipart past the size limit).
  { pattern: /^The file is not an image$/, key: 'server_messages.not_an_image' },
  { pattern: /^Unsupported image format$/, key: 'server_messages.unsupported_image' },
  { pattern: /^At most (\d+) uploaded posters per item: delete one first$/, key: 'server_messages.poster_limit', names: ['count'] },
  { pattern: /^A file is required$/, key: 'server_messages.file_required' },
  { pattern: /^(?:request file too large|Request body is too large)$/, key: 'server_messages.file_too_large' },
  { pattern: /^Pages can only be removed from CBZ\/ZIP books$/, key: 'server_messages.remove_pages_zip_only' },
  // The search's bounds (full-text.ts, simplify.ts): a paragraph pasted into the search box.
  { pattern: /^A (?:search text|condition\x27s text) may hold at most (\d+) characters$/, key: 'server_messages.search_too_long', names: ['count'] },
  { pattern: /^A search may hold at most (\d+) (?:different words|words and phrases)$/, key: 'server_messages.search_too_many_words', names: ['count'] },
  // search-query.ts and simplify.ts: brackets nested too deep in the search box, a filter of too many choices.
  { pattern: /^(?:A search may nest at most|Condition nested deeper than) (\d+) levels$/, key: 'server_messages.search_too_deep', names: ['count'] },
  { pattern: /^(?:Condition has more than (\d+) parts|A search may hold at most (\d+) title patterns)$/, key: 'server_messages.search_too_many_parts', names: ['count', 'count'] },
  // conditions.ts, simplify.ts and the two search compilers: a condition written wrongly (a newer or older
  // client's filter); its English detail names JSON members a reader cannot act on.
  {
    pattern:
      /^(?:Invalid condition|A condition must have exactly one key|\w+ needs an array|Unsupported condition field: .*|Condition \w+ needs an operator|Unsupported operator: .*|Operator \w+ needs (?:a value|a single value|a number|a dateTime|an object value)|Invalid duration|author name and role must be strings|author needs a name or a role)$/s,
    key: 'server_messages.search_invalid',
  },
  // csrf.ts: a write without the XHR marker nor an Origin of this server (a proxy that drops headers).
  { pattern: /^Cross-site request refused: send X-Requested-With or a matching Origin$/, key: 'server_messages.cross_site_refused' },
  // store-limits.ts: the reader's settings kept on the server (client-settings), or a reading position, past their bounds.
  {
    pattern: /^(?:Setting keys are limited to \d+ characters|.+: a setting value is limited to \d+ bytes|At most \d+ settings may be stored|Settings are limited to \d+ bytes in all|The server holds as many client settings as it accepts)$/s,
    key: 'server_messages.settings_too_large',
  },
  { pattern: /^Invalid progression: (?:device id and name are limited to \d+ characters|A locator is limited to \d+ bytes)$/, key: 'server_messages.progress_invalid' },
  // read-progress.ts and r2-progression.ts: a reading position the book (changed since it was opened) does not have.
  { pattern: /^Page number must be between 1 and \d+$/, key: 'server_messages.progress_invalid' },
  { pattern: /^A newer progression already exists$/, key: 'server_messages.progress_newer_exists' },
  {
    pattern:
      /^(?:Invalid resource href: .*|Resource does not exist in book: .*|locations\.(?:progression|position) is required|A page must be given when completed is false|Either page or completed must be given)$/s,
    key: 'server_messages.progress_invalid',
  },
  { pattern: /^Book not found$/, key: 'server_messages.not_found' },
  // collection-routes.ts, readlist-routes.ts: a series or book picked, then deleted by a scan or another admin.
  { pattern: /^Unknown series: .+$/s, key: 'server_messages.series_gone' },
  { pattern: /^Unknown books: .+$/s, key: 'server_messages.books_gone' },
  // duplicate-routes.ts: a known duplicate page, or one of its matches, removed meanwhile (another tab, a scan).
  { pattern: /^(?:No such match|Unknown page hash)$/, key: 'server_messages.duplicate_gone' },
];

/**
 * What a failed request validation says of one field, after the field's name (schemas.ts: a schema's
 * own wording, Ajv's for the bounds of input-limits.ts, metadata-update.ts's rules).
 */
const RULES: readonly Shape[] = [
  { pattern: /^must not be blank$/, key: 'server_messages.rules.blank' },
  { pattern: /^is required$/, key: 'server_messages.rules.required' },
  { pattern: /^must be a well-formed email address$/, key: 'server_messages.rules.email' },
  { pattern: /^must be a non-empty list of distinct ids$/, key: 'server_messages.rules.distinct_ids' },
  { pattern: /^is not a valid ISBN: (.*)$/s, key: 'server_messages.rules.isbn', names: ['value'] },
  { pattern: /^must be a date \(yyyy-MM-dd\)$/, key: 'server_messages.rules.date' },
  { pattern: /^must be a valid URL: (.*)$/s, key: 'server_messages.rules.url', names: ['value'] },
  { pattern: /^must be an http, https, ftp, file, jar or mailto URL: (.*)$/s, key: 'server_messages.rules.url_scheme', names: ['value'] },
  { pattern: /^must be a valid BCP 47 language tag$/, key: 'server_messages.rules.language' },
  { pattern: /^(?:must be a positive integer or 0|must be greater than or equal to 0)$/, key: 'server_messages.rules.not_negative' },
  { pattern: /^must be greater than 0$/, key: 'server_messages.rules.positive' },
  { pattern: /^must NOT have more than (\d+) characters$/, key: 'server_messages.rules.max_chars', names: ['count'] },
  { pattern: /^must NOT have more than (\d+) items$/, key: 'server_messages.rules.max_items', names: ['count'] },
];

/** handleError's prefix; RequestValidationError joins its violations with "; ", each "<field> <rule>". */
const VALIDATION = /^Validation failed: (.+)$/s;
const VIOLATION = /^([\w.]+) (.+)$/s;

function readShape(shapes: readonly Shape[], text: string, params: Record<string, string> = {}): ServerMessagePart | undefined {
  for (const { pattern, key, names = [], params: implied } of shapes) {
    const match = pattern.exec(text);
    if (!match) continue;
    const part: ServerMessagePart = { key, params: { ...params, ...implied } };
    names.forEach((name, index) => {
      const value = match[index + 1];
      // Alternatives of one pattern may capture the same name in groups of their own: the one that matched counts.
      if (value === undefined) return;
      if (name === 'count') part.count = Number(value);
      else part.params![name] = value;
    });
    return part;
  }
  return undefined;
}

export function serverMessage(message: string): ReadServerMessage | undefined {
  const validation = VALIDATION.exec(message);
  if (!validation) {
    const part = readShape(SENTENCES, message);
    return part && { parts: [part] };
  }
  // A value quoted in a rule may itself hold "; " (an ISBN typed so): such a message is not read.
  const parts: ServerMessagePart[] = [];
  for (const violation of validation[1]!.split('; ')) {
    const fieldRule = VIOLATION.exec(violation);
    const part = fieldRule && readShape(RULES, fieldRule[2]!, { field: fieldRule[1]! });
    if (!part) return undefined;
    parts.push(part);
  }
  return { parts };
}
