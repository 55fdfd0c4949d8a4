import { XMLParser } from 'fast-xml-parser';
import { resolveHref } from './epub-opf.ts';
import type { XmlParser } from './xml-parsing.ts';

/*
 * META-INF/encryption.xml names the resources of an EPUB that are stored encrypted, each with its
 * algorithm. Two kinds are found in real libraries:
 * - font obfuscation (IDPF's and Adobe's), which publishers apply to embedded fonts of DRM-free
 *   books: without it the text still reads, in another font;
 * - encryption proper, as DRM schemes write it (Adobe ADEPT, Apple FairPlay, Readium LCP): the
 *   text and images are ciphertext, which no reader here can show.
 * Only the second kind makes a book unreadable; the analysis asks for it alone.
 */

/** Algorithms that obfuscate fonts (EPUB OCF 3 §4.5, and Adobe's older scheme). */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#rc']);

/** Encrypted resources read of one document; a package lists at most 20,000 (MAX_PACKAGE_ITEMS). */
const MAX_REFERENCES = 20_000;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '$',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === 'EncryptedData',
});

type XmlNode = Record<string, unknown>;
const attribute = (node: unknown, name: string): string | undefined => {
  const attributes = typeof node === 'object' && node !== null ? (node as XmlNode).$ : undefined;
  const value = typeof attributes === 'object' && attributes !== null ? (attributes as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
};

/** The zip entry names encryption.xml lists as encrypted by something other than font obfuscation. */
export function parseEncryption(xml: string): string[] {
  const root = (parser.parse(xml) as XmlNode).encryption as XmlNode | undefined;
  const data = Array.isArray(root?.EncryptedData) ? (root.EncryptedData as unknown[]).slice(0, MAX_REFERENCES) : [];
  return data.flatMap((entry) => {
    const node = entry as XmlNode;
    const algorithm = attribute(node.EncryptionMethod, 'Algorithm')?.trim().toLowerCase() ?? '';
    const uri = attribute((node.CipherData as XmlNode | undefined)?.CipherReference, 'URI');
    if (!uri || FONT_OBFUSCATION.has(algorithm)) return [];
    // References are relative to the container's root, where encryption.xml's folder sits.
    return [resolveHref('', uri)];
  });
}

/** parseEncryption, for parseXml (xml-parsing.ts). */
export const ENCRYPTION_PARSER: XmlParser<[], string[]> = { module: import.meta.url, name: 'parseEncryption', parse: (xml) => parseEncryption(xml) };
