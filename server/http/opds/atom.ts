/**
 * Minimal Atom/OPDS 1.2 writer: feeds and entries as strings, everything escaped. Links are
 * written absolute (the feed's origin before every root-relative href), as Komga writes them:
 * OpenSearch clients (calibre, some e-readers) use a search template as it stands, and not every
 * reader resolves a relative PSE template or download link against the feed's address.
 */

export const NAVIGATION = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const ACQUISITION = 'application/atom+xml;profile=opds-catalog;kind=acquisition';

/**
 * Characters XML 1.0 does not allow at all, even escaped: C0 controls other than tab, line feed and
 * carriage return, U+FFFE/U+FFFF and unpaired surrogates. A summary pasted or scraped into the
 * metadata (Komf, the API) may carry one, and one such character makes the whole feed unreadable
 * to an XML parser, so they are dropped.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const xml = (text: string) =>
  text
    .replace(NOT_XML, '')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export interface Link {
  rel: string;
  href: string;
  type?: string;
  /** Extra attributes written verbatim after escaping values (e.g. pse:count). */
  attributes?: Record<string, string | number>;
}

/** `href` made absolute against `origin` (`http://host:port`, and the base path if any: publicBaseUrl) when it starts at the root. */
export const absolute = (href: string, origin: string) => (href.startsWith('/') ? `${origin}${href}` : href);

export const link = (l: Link, origin: string) =>
  `<link rel="${xml(l.rel)}" href="${xml(absolute(l.href, origin))}"${l.type ? ` type="${xml(l.type)}"` : ''}${Object.entries(l.attributes ?? {})
    .map(([k, v]) => ` ${k}="${xml(String(v))}"`)
    .join('')}/>`;

export interface Entry {
  id: string;
  title: string;
  updated: string;
  content?: string;
  authors?: string[];
  issued?: string | null;
  links: Link[];
}

export const entry = (e: Entry, origin: string) =>
  [
    '<entry>',
    `<title>${xml(e.title)}</title>`,
    `<id>${xml(e.id)}</id>`,
    `<updated>${xml(e.updated)}</updated>`,
    ...(e.authors ?? []).map((a) => `<author><name>${xml(a)}</name></author>`),
    e.issued ? `<dcterms:issued>${xml(e.issued)}</dcterms:issued>` : '',
    e.content !== undefined ? `<content type="text">${xml(e.content)}</content>` : '',
    ...e.links.map((l) => link(l, origin)),
    '</entry>',
  ].join('');

export interface Feed {
  /** Scheme, host, port and base path the client used (publicBaseUrl), for absolute links. */
  origin: string;
  id: string;
  title: string;
  updated: string;
  selfHref: string;
  kind: typeof NAVIGATION | typeof ACQUISITION;
  links?: Link[];
  entries: Entry[];
}

export const feed = (f: Feed) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog"',
    ' xmlns:pse="http://vaemendis.net/opds-pse/ns" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"',
    ' xmlns:dcterms="http://purl.org/dc/terms/">',
    `<id>${xml(f.id)}</id>`,
    `<title>${xml(f.title)}</title>`,
    `<updated>${xml(f.updated)}</updated>`,
    '<author><name>Folio</name></author>',
    link({ rel: 'self', href: f.selfHref, type: f.kind }, f.origin),
    link({ rel: 'start', href: '/opds/v1.2/catalog', type: NAVIGATION }, f.origin),
    link({ rel: 'search', href: '/opds/v1.2/search', type: 'application/opensearchdescription+xml' }, f.origin),
    ...(f.links ?? []).map((l) => link(l, f.origin)),
    ...f.entries.map((e) => entry(e, f.origin)),
    '</feed>',
  ].join('\n');
