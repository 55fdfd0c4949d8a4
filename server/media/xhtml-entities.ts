import type { EntityDecoderOptions } from 'fast-xml-parser';
import sax from 'sax';
import { declaredEntities } from './xml-doctype.ts';

/*
 * Character references in EPUB navigation titles and hrefs, and in the HTML of a package's
 * description. EPUB 2 documents declare the XHTML 1.1 DTD, which names the HTML 4 characters
 * (&nbsp; &eacute; &mdash; …), and books use them; the DTD itself is never fetched or read (a
 * document's own DOCTYPE is untrusted, and its URL would be a request to anywhere), so those
 * names come from a fixed table: sax's, which is exactly the XHTML DTDs' 253 (HTML 4's 252 and
 * &apos;). Decoding is one pass: what a reference decodes to is never decoded again
 * (`&amp;eacute;` is the text "&eacute;"), and a name nobody declared stays as written.
 */
export const XHTML_ENTITIES: Readonly<Record<string, string>> = Object.freeze({ ...(sax as unknown as { ENTITIES: Record<string, string> }).ENTITIES });

/**
 * Characters a document's own declared entities may add to its text, all references together
 * (fast-xml-parser's default bound for its own expansions): a 100-character entity named in every
 * title of a 2 MB document would otherwise grow it to hundreds of MB.
 */
export const MAX_ENTITY_EXPANSION_CHARS = 100_000;

/**
 * The character a numeric reference names, or nothing when XML allows no such character (NUL,
 * other controls, surrogates, beyond U+10FFFF): String.fromCodePoint threw on `&#99999999;`, and
 * one such reference cost a book its whole table of contents.
 */
function xmlCharacter(code: number): string {
  const allowed =
    code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
  return allowed ? String.fromCodePoint(code) : '';
}

const REFERENCE = /&(?:#([0-9]{1,10})|#[xX]([0-9A-Fa-f]{1,8})|([A-Za-z_:][A-Za-z0-9_.:-]{0,63}));/g;

/** A document's own entities (from its DOCTYPE's internal subset) that text of it may name, and how much expanding them may still add. */
export interface DocumentEntities {
  declared: ReadonlyMap<string, string>;
  /** Characters the declared entities may still add to the document's text, all references together. */
  budget: number;
}

/** Thrown when a document's declared entities would add more text than it may (a "quadratic blow-up": one long entity named many times). */
export class EntityExpansionRefused extends Error {
  constructor(limit: number) {
    super(`its DOCTYPE's entities expand to more than ${limit} characters`);
    this.name = 'EntityExpansionRefused';
  }
}

/**
 * The entities a document declares in its DOCTYPE, as plain text, each expansion counted against
 * `maxExpandedChars` for the whole document. (Entities defined by other entities are refused
 * before: xml-doctype.ts unexpandedEntity.)
 */
export function documentEntities(xml: string, maxExpandedChars: number): DocumentEntities {
  // A value's own character references (&#233;) are read where it is declared.
  const declared = new Map([...declaredEntities(xml)].map(([name, value]) => [name, decodeXhtmlReferences(value)]));
  return { declared, budget: maxExpandedChars };
}

/** `text` with its character references decoded once (see above); `own`: the document's declared entities, which win over the XHTML names. */
export function decodeXhtmlReferences(text: string, own?: DocumentEntities): string {
  if (!text.includes('&')) return text;
  const limit = own?.budget;
  return text.replace(REFERENCE, (reference, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (decimal !== undefined) return xmlCharacter(Number(decimal));
    if (hex !== undefined) return xmlCharacter(Number.parseInt(hex, 16));
    const declared = own?.declared.get(name!);
    if (declared !== undefined) {
      own!.budget -= declared.length;
      if (own!.budget < 0) throw new EntityExpansionRefused(limit!);
      return declared;
    }
    return Object.hasOwn(XHTML_ENTITIES, name!) ? XHTML_ENTITIES[name!]! : reference;
  });
}

/**
 * fast-xml-parser's entity decoding, done here: the XHTML names and numeric references, and the
 * plain-text entities the document's DOCTYPE declares (its parser hands them over; it drops any
 * whose value names another, and xml-doctype.ts refuses such documents), within
 * MAX_ENTITY_EXPANSION_CHARS. Its own decoder knows the XML five and leaves numeric references as
 * written unless told HTML's names, of which it has only a few dozen. One decoder per parser:
 * parsing is synchronous, and each parse starts with reset().
 */
export function xhtmlEntityDecoder(): EntityDecoderOptions {
  const fresh = (declared = new Map<string, string>()): DocumentEntities => ({ declared, budget: MAX_ENTITY_EXPANSION_CHARS });
  let own = fresh();
  return {
    // No external entity is ever read (nor offered: Folio's parsers set none).
    setExternalEntities: () => undefined,
    addInputEntities: (entities) => {
      own = fresh(new Map(Object.entries(entities).filter((entry): entry is [string, string] => typeof entry[1] === 'string')));
    },
    reset: () => {
      own = fresh();
    },
    decode: (text) => decodeXhtmlReferences(text, own),
    setXmlVersion: () => undefined,
  };
}
