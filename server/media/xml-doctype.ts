/**
 * Entities a document's DOCTYPE declares that its parser will not expand. fast-xml-parser expands
 * an internal entity whose value is plain text (as Komga's Woodstox does) and never reads an
 * external one (it refuses the document), but an entity defined by other entities (the "billion
 * laughs" &lol9; → ten &lol8; → …) it silently leaves undeclared: each reference stayed in the
 * text as written, and a book was imported titled "&lol9;". Woodstox expands such chains within its
 * limits and refuses the document past them; Folio never expands them, so it refuses the document
 * with this reason instead of importing references as text.
 *
 * Only the DOCTYPE's internal subset is read, once and in linear time (each pattern is a run of
 * one character class), whatever the document's size.
 */
const DOCTYPE_START = /<!DOCTYPE\b[^[>]*\[/y;
const ENTITY = /<!ENTITY\s+([^\s"'>]+)\s+(?:"([^"]*)"|'([^']*)')/g;
/** A general or parameter entity reference (character references, &#…;, are plain text). */
const REFERENCE = /[&%][A-Za-z_:]/;

/** The DOCTYPE's internal subset (between its `[` and `]`), or undefined when the document has none. */
function internalSubset(xml: string): string | undefined {
  const start = xml.indexOf('<!DOCTYPE');
  // A DOCTYPE comes before the root element; one further on is not this document's.
  if (start < 0 || /<[A-Za-z_]/.test(xml.slice(0, start))) return undefined;
  DOCTYPE_START.lastIndex = start;
  if (!DOCTYPE_START.test(xml)) return undefined;
  const end = xml.indexOf(']', DOCTYPE_START.lastIndex);
  return xml.slice(DOCTYPE_START.lastIndex, end < 0 ? xml.length : end);
}

/** Why the document's declared entities cannot be read as declared, or undefined when they can. */
export function unexpandedEntity(xml: string): string | undefined {
  const subset = internalSubset(xml);
  if (subset === undefined) return undefined;
  for (const match of subset.matchAll(ENTITY)) {
    // (Parameter entities, <!ENTITY % …>, are refused by the parsers' validation before this.)
    const name = match[1];
    if (REFERENCE.test(match[2] ?? match[3] ?? '')) return `its DOCTYPE defines the entity '${name}' by other entities, which are not expanded`;
  }
  return undefined;
}

/**
 * The general entities the DOCTYPE's internal subset declares, by name, their values as written
 * (for documents read without an XML parser: EPUB navigation). The first declaration of a name
 * wins, as in XML. Check unexpandedEntity first: a value naming other entities is kept as written.
 */
export function declaredEntities(xml: string): Map<string, string> {
  const declared = new Map<string, string>();
  const subset = internalSubset(xml);
  if (subset === undefined) return declared;
  for (const match of subset.matchAll(ENTITY)) {
    if (!declared.has(match[1]!)) declared.set(match[1]!, match[2] ?? match[3] ?? '');
  }
  return declared;
}
