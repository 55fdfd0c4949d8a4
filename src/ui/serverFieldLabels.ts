/*
 * A failed validation names each field as the API spells it ("summary", "authors.name",
 * "rememberMeDurationDays"); a person knows the field by the label of the form they filled in. This
 * table reads the body fields the web client itself sends into the locale keys of those labels, so a
 * translated refusal names "Résumé", not "summary". A field no form of ours sends (a newer server's,
 * a list of ids the client picks) has no label and keeps the API's name.
 * No imports: the table is plain data, read by i18n.ts.
 */

/** API field (list positions dropped, as schemas.ts names them) → locale key of its form label. */
const LABELS: Readonly<Record<string, string>> = {
  // Book and series metadata (EditBookDialog, EditSeriesDialog, the batch edits).
  title: 'edit_book.fields.title',
  titleSort: 'edit_series.fields.title_sort',
  number: 'edit_book.fields.number',
  numberSort: 'edit_book.fields.number_sort',
  releaseDate: 'edit_book.fields.release_date',
  isbn: 'edit_book.fields.isbn',
  summary: 'edit_book.fields.summary',
  tags: 'edit_book.fields.tags',
  authors: 'edit_book.fields.authors',
  'authors.name': 'edit_book.fields.authors',
  'authors.role': 'edit_book.fields.authors',
  links: 'edit_book.fields.links',
  'links.label': 'edit_book.fields.links',
  'links.url': 'edit_book.fields.links',
  status: 'series.facts.status',
  readingDirection: 'series.facts.reading_direction',
  publisher: 'series.facts.publisher',
  language: 'series.facts.language',
  ageRating: 'series.facts.age_rating',
  genres: 'series.facts.genres',
  totalBookCount: 'edit_series.fields.total_book_count',
  sharingLabels: 'batch_edit_series.sharing_labels',
  alternateTitles: 'edit_series.fields.alternate_titles',
  'alternateTitles.label': 'edit_series.fields.alternate_titles',
  'alternateTitles.title': 'edit_series.fields.alternate_titles',
  // Libraries, collections and read lists (their dialogs all label the name "Name").
  name: 'libraries.add_dialog.name',
  root: 'libraries.add_dialog.root',
  scanDirectoryExclusions: 'libraries.options.scanDirectoryExclusions',
  oneshotsDirectory: 'libraries.options.oneshotsDirectory',
  // Accounts, API keys, the first-run claim.
  email: 'users_admin.email',
  password: 'users_admin.password',
  roles: 'users_admin.roles',
  comment: 'my_account.api_keys.comment',
  // Server settings (ServerScreen).
  thumbnailSize: 'server.settings.thumbnail_size',
  rememberMeDurationDays: 'server.settings.remember_me_days',
  taskPoolSize: 'server.settings.task_pool_size',
};

/** The locale key of the label a field is shown under in the client's forms, if a form sends it. */
export function fieldLabelKey(field: string): string | undefined {
  return Object.hasOwn(LABELS, field) ? LABELS[field] : undefined;
}
