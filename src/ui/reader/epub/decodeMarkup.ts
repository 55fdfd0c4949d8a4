/*
 * The text of a book's (X)HTML document, decoded the way its bytes say: a byte order mark, else
 * UTF-16 recognised by its opening "<?", else the encoding its XML declaration or <meta charset>
 * names, else UTF-8. Older EPUBs are often ISO-8859-1 or Windows-1252 (and Japanese ones Shift_JIS);
 * read as UTF-8 every accented letter became "�". The cleaned document is handed on as UTF-8 without
 * its declaration, so the label is not read twice.
 */

const XML_DECLARED = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:-]*)["']/;
const META_DECLARED = /<meta[^>]+charset\s*=\s*["']?([A-Za-z][A-Za-z0-9._:-]*)/i;
/** Declarations sit at the top: the XML one first of all, <meta> within the head. */
const SNIFF_BYTES = 2048;

export function decodeMarkup(bytes: Uint8Array): string {
  return declaredAsUtf8(decode(bytes));
}

/**
 * The XML declaration of decoded text names UTF-8 (what the text becomes again): the rendering
 * library writes the chapter out as UTF-8 with its declaration, and a browser believing a leftover
 * "ISO-8859-1" there turned every "é" into "Ã©".
 */
function declaredAsUtf8(text: string): string {
  return text.replace(/^(\s*<\?xml[^>]*?\sencoding\s*=\s*["'])[^"']*(["'])/, '$1UTF-8$2');
}

function decode(bytes: Uint8Array): string {
  const starts = (...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
  if (starts(0xef, 0xbb, 0xbf)) return new TextDecoder('utf-8').decode(bytes);
  if (starts(0xff, 0xfe) || starts(0x3c, 0x00, 0x3f, 0x00)) return new TextDecoder('utf-16le').decode(bytes);
  if (starts(0xfe, 0xff) || starts(0x00, 0x3c, 0x00, 0x3f)) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, SNIFF_BYTES));
  const declared = XML_DECLARED.exec(head)?.[1] ?? META_DECLARED.exec(head)?.[1];
  const decoder = declared ? decoderFor(declared) : undefined;
  // A UTF-16 label over bytes that are not UTF-16 (no mark, no "<\0?\0") is wrong: UTF-8.
  if (decoder && !decoder.encoding.startsWith('utf-16')) return decoder.decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch (error) {
    // A label no browser knows: the UTF-8 default applies, as it does for a browser.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
