import { SerialWorker, type WithoutId } from './serial-worker.ts';
import { OperationTimeout } from './transient-errors.ts';
import type { XmlOutcome, XmlRequest } from './xml-protocol.ts';

/*
 * XML from a book (ComicInfo.xml, an EPUB's container and package documents) is hostile input, and
 * its parsers are synchronous: on the server's one JavaScript thread, a 1 MB ComicInfo.xml of empty
 * elements cost about a second and a 4 MB package document two to eight, during which no request
 * was answered. Documents up to INLINE_MAX_CHARS (every ordinary ComicInfo.xml, most package
 * documents) are parsed where they are read, which costs well under the ~50 ms a request may wait;
 * larger ones go to one worker thread, one at a time, within TIME_LIMIT_MS.
 */

/** Documents up to this many characters are parsed on the calling thread (a few ms at worst). */
export const INLINE_MAX_CHARS = 16 * 1024;
/**
 * Longest one parse may take in the worker. The largest documents read (4 MB) take the parsers at
 * most ~8 s on a 2-core machine at load 13, of the worst shapes measured; past this the document
 * is deemed too complex to read (XmlTooComplex), not the server slow.
 */
const TIME_LIMIT_MS = 30_000;
/** Large documents waiting for the worker; beyond this the server is busy (retried later). */
const MAX_WAITING = 32;

/** A document whose parse ran past the worker's time limit: the document's fault, not the server's. */
export class XmlTooComplex extends Error {
  constructor(what: string, ms: number) {
    super(`${what} is too complex to read: parsing it took longer than ${ms} ms`);
    this.name = 'XmlTooComplex';
  }
}

/** What a parser threw in the worker, as data: its class name, message and own fields. */
export class XmlParserThrew extends Error {
  readonly thrownName: string;
  readonly fields: Record<string, unknown>;
  constructor(thrown: NonNullable<XmlOutcome['thrown']>) {
    super(thrown.message);
    this.name = 'XmlParserThrew';
    this.thrownName = thrown.name;
    this.fields = thrown.fields;
  }
}

export const xmlWorker = new SerialWorker<XmlRequest, XmlOutcome>({
  script: new URL('./xml-worker.ts', import.meta.url),
  name: 'XML',
  timeLimitMs: TIME_LIMIT_MS,
  maxWaiting: MAX_WAITING,
  busy: 'too many large XML documents are being read at once',
  describe: (request) => request.what,
});

/** A synchronous parser whose first argument is the document's text, named for the worker. */
export interface XmlParser<Args extends unknown[], Result> {
  /** import.meta.url of the module that exports it. */
  module: string;
  /** Its export name. */
  name: string;
  parse: (xml: string, ...args: Args) => Result;
}

/**
 * `parser.parse(xml, ...args)`: here when the document is small, else in the XML worker. Whatever
 * the parser throws in the worker comes back as XmlParserThrew (the caller rebuilds its own error
 * from it); a parse past the time limit throws XmlTooComplex; a full queue or a stopped worker
 * throws ServerBusy (transient).
 */
export async function parseXml<Args extends unknown[], Result>(
  parser: XmlParser<Args, Result>,
  what: string,
  xml: string,
  ...args: Args
): Promise<Result> {
  if (xml.length <= INLINE_MAX_CHARS) return parser.parse(xml, ...args);
  const request: WithoutId<XmlRequest> = { module: parser.module, name: parser.name, args: [xml, ...args], what };
  let outcome: XmlOutcome;
  try {
    outcome = await xmlWorker.call(request);
  } catch (error) {
    if (error instanceof OperationTimeout) throw new XmlTooComplex(what, xmlWorker.timeLimitMs);
    throw error;
  }
  if (outcome.thrown) throw new XmlParserThrew(outcome.thrown);
  return outcome.value as Result;
}
