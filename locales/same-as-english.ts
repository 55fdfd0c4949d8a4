/*
 * Texts a translation may leave as English wrote them, reviewed (locales/check.ts reports any other
 * text identical to English as untranslated: a key added with its English copied into every file).
 */

/** The same in every language: names, file formats, key caps printed in Latin on keyboards, units. */
export const SAME_EVERYWHERE: readonly string[] = [
  'common.product_name',
  'common.locale_rtl',
  'libraries.options.importMylarSeries',
  'edit_book.fields.isbn',
  'reader.keys.Esc',
  'reader.keys.Home',
  'reader.keys.End',
  'reader.keys.Shift',
  'reader.keys.PageUp',
  'reader.keys.PageDown',
  'reader.settings_groups.webtoon',
  'reader.directions.WEBTOON',
  'reading_direction.WEBTOON',
  'common.pixels',
];

/** Per language: words it shares with English (Status, Format, Server, Tags…), each read by a reviewer. */
export const SAME_IN: Readonly<Record<string, readonly string[]>> = {
  ar: ['edit_book.date_hint'],
  ca: ['nav.more', 'libraries.option_groups.general', 'book.format', 'media_status.ERROR', 'reader.settings_groups.general', 'reader.directions.VERTICAL', 'reader.epub.settings_groups.text', 'author_roles.editor', 'history.values.no', 'reading_direction.VERTICAL'],
  cs: ['users_admin.activity.user_agent', 'nav.server', 'nav.import', 'reader.epub.settings_groups.text', 'server.title'],
  da: ['users_admin.role.ADMIN', 'nav.administration', 'nav.server', 'series.facts.status', 'book.download', 'book.links', 'book.tags', 'book.media_status', 'book.format', 'reader.debug.cache', 'reader.shortcut_groups.navigation', 'reader.epub.setting.layout', 'reader.epub.themes.sepia', 'browse.series_status', 'browse.value_filters.genre', 'browse.value_filters.tag', 'theme.system', 'edit_book.fields.tags', 'edit_book.fields.links', 'posters.upload', 'server.title', 'server.version', 'import_readlist.analyse'],
  de: ['users_admin.role.ADMIN', 'nav.server', 'nav.import', 'libraries.option_groups.scanner', 'libraries.add_dialog.name', 'series.facts.status', 'series.facts.genres', 'book.links', 'book.tags', 'book.media_status', 'book.format', 'reader.shortcut_groups.navigation', 'reader.epub.settings_groups.text', 'reader.epub.themes.sepia', 'browse.series_status', 'browse.value_filters.genre', 'browse.value_filters.tag', 'browse.sort_keys.metadata_titleSort', 'theme.system', 'author_roles.letterer', 'author_roles.cover', 'history.columns.details', 'history.details.name', 'edit_book.fields.tags', 'edit_book.fields.links', 'server.title'],
  eo: ['reader.epub.themes.sepia'],
  es: ['users_admin.roles', 'nav.more', 'libraries.option_groups.general', 'libraries.series_list', 'media_status.ERROR', 'units.series', 'reader.settings_groups.general', 'reader.directions.VERTICAL', 'reader.epub.themes.sepia', 'search.kinds.series', 'author_roles.editor', 'history.values.no', 'reading_direction.VERTICAL', 'metrics.columns.series'],
  fa: ['edit_book.date_hint'],
  fr: ['users_admin.restrictions', 'users_admin.actions', 'users_admin.activity.date', 'users_admin.activity.source', 'nav.administration', 'libraries.option_groups.scanner', 'libraries.tabs.collections', 'series.facts.genres', 'book.tags', 'book.pages', 'book.format', 'units.pages', 'paging.label', 'reader.page_number', 'reader.thumbnails', 'reader.directions.VERTICAL', 'reader.shortcut_groups.navigation', 'reader.shortcut_groups.menus', 'reader.epub.image', 'reader.epub.layouts.paginated', 'browse.value_filters.genre', 'browse.value_filters.tag', 'search.suggestions', 'search.kinds.collections', 'history.columns.date', 'history.details.source', 'reading_direction.VERTICAL', 'edit_book.fields.tags', 'server.version', 'media.columns.actions', 'media.pages.page', 'media.pages.action', 'media.pages.match_row', 'compare.page_alt'],
  gl: ['users_admin.roles', 'libraries.series_list', 'units.series', 'reader.directions.VERTICAL', 'reader.epub.themes.sepia', 'search.kinds.series', 'author_roles.editor', 'reading_direction.VERTICAL', 'metrics.columns.series'],
  he: ['edit_book.date_hint'],
  hr: ['users_admin.role.ADMIN', 'series.facts.status', 'book.media_status', 'book.format', 'reader.epub.setting.font', 'browse.series_status'],
  id: ['users_admin.email', 'users_admin.role.ADMIN', 'users_admin.activity.user_agent', 'login.email', 'nav.server', 'series.facts.status', 'book.media_status', 'book.format', 'reader.debug.cache', 'reader.debug.viewport', 'reader.epub.themes.sepia', 'reader.epub.fonts.serif', 'reader.epub.fonts.sans-serif', 'reader.epub.fonts.monospace', 'browse.series_status', 'browse.value_filters.genre', 'browse.value_filters.tag', 'series_status.HIATUS', 'server.title', 'folders.current'],
  it: ['users_admin.email', 'users_admin.password', 'users_admin.activity.user_agent', 'users_admin.activity.sources.Password', 'login.email', 'login.password', 'nav.home', 'nav.account', 'nav.server', 'dashboard.title', 'book.file', 'screens.account', 'reader.debug.cache', 'browse.value_filters.tag', 'history.values.no', 'server.title', 'import_books.file'],
  ja: ['edit_book.date_hint'],
  ko: ['edit_book.date_hint'],
  nb: ['users_admin.role.ADMIN', 'nav.server', 'series.facts.status', 'book.media_status', 'book.format', 'reader.epub.themes.sepia', 'browse.series_status', 'theme.system', 'server.title'],
  nl: ['nav.account', 'nav.server', 'libraries.option_groups.scanner', 'libraries.series_list', 'series.facts.status', 'series.facts.genres', 'book.links', 'book.tags', 'book.media_status', 'units.series', 'screens.account', 'reader.debug.cache', 'reader.epub.themes.sepia', 'browse.filters', 'browse.series_status', 'browse.value_filters.genre', 'browse.value_filters.tag', 'search.kinds.series', 'history.columns.details', 'edit_book.fields.tags', 'edit_book.fields.links', 'server.title', 'metrics.columns.series'],
  pl: ['users_admin.role.ADMIN', 'nav.import', 'series.facts.status', 'book.media_status', 'book.format', 'reader.epub.themes.sepia', 'browse.series_status', 'browse.value_filters.tag', 'folders.current'],
  'pt-BR': ['series.facts.status', 'book.links', 'book.media_status', 'reader.debug.cache', 'reader.directions.VERTICAL', 'reader.shortcut_groups.menus', 'reader.epub.setting.layout', 'browse.series_status', 'author_roles.editor', 'reading_direction.VERTICAL', 'edit_book.fields.links'],
  pt: ['reader.debug.cache', 'reader.directions.VERTICAL', 'reader.shortcut_groups.menus', 'author_roles.editor', 'reading_direction.VERTICAL'],
  ro: ['users_admin.role.ADMIN', 'nav.more', 'nav.server', 'nav.import', 'libraries.option_groups.general', 'book.format', 'reader.debug.cache', 'reader.directions.VERTICAL', 'reader.epub.settings_groups.text', 'reader.epub.setting.font', 'reader.epub.themes.sepia', 'author_roles.colorist', 'author_roles.editor', 'reading_direction.VERTICAL', 'server.title'],
  sv: ['nav.administration', 'nav.server', 'series.facts.status', 'book.media_status', 'book.format', 'reader.debug.cache', 'reader.epub.settings_groups.text', 'reader.epub.setting.layout', 'reader.epub.themes.sepia', 'browse.series_status', 'browse.value_filters.genre', 'theme.system', 'server.title', 'server.version'],
  ta: ['edit_book.date_hint'],
  th: ['users_admin.activity.user_agent', 'edit_book.date_hint'],
  vi: ['users_admin.email', 'login.email', 'edit_book.date_hint'],
  'zh-Hans': ['edit_book.date_hint'],
  'zh-Hant': ['edit_book.date_hint'],
};
