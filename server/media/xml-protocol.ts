/**
 * Messages between the main thread and the XML worker (xml-worker.ts). A request names a parser by
 * its module and export, so that the domain's parsers (ComicInfo) and the media's (EPUB package)
 * run there alike without this layer importing the domain.
 */
export interface XmlRequest {
  id: number;
  /** file: URL of the module exporting the parser. */
  module: string;
  /** The parser's export name; it is called with `args` and must be synchronous. */
  name: string;
  args: unknown[];
  /** Says what is parsed, for the time-out error ("ComicInfo.xml of …"). */
  what: string;
}

/** What the parser returned, or what it threw: its class name, message and own fields. */
export type XmlOutcome = { value: unknown; thrown?: undefined } | { thrown: { name: string; message: string; fields: Record<string, unknown> }; value?: undefined };
