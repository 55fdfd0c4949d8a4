/**
 * The text of an XML document decoded the way its bytes say (XML 1.0, appendix F): a byte order
 * mark, else UTF-16 recognised by its opening "<?", else the encoding its declaration names, else
 * UTF-8. ComicInfo.xml written on Windows is often UTF-16 or ISO-8859-1; read as UTF-8 the first
 * looked malformed and the second lost its accented letters.
 */
export function decodeXmlText(bytes: Buffer): string {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return bytes.toString('utf8', 3);
  if (startsWith(bytes, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (startsWith(bytes, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (startsWith(bytes, [0x3c, 0x00, 0x3f, 0x00])) return new TextDecoder('utf-16le').decode(bytes);
  if (startsWith(bytes, [0x00, 0x3c, 0x00, 0x3f])) return new TextDecoder('utf-16be').decode(bytes);
  const declared = DECLARED_ENCODING.exec(bytes.subarray(0, 256).toString('latin1'))?.[1];
  if (declared) {
    const decoder = decoderFor(declared);
    // A declaration saying UTF-16 over bytes that are not (no mark, no "<\0?\0") is wrong: UTF-8.
    if (decoder && !decoder.encoding.startsWith('utf-16')) return decoder.decode(bytes);
  }
  return bytes.toString('utf8');
}

const DECLARED_ENCODING = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:-]*)["']/;

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

/** A decoder for an encoding label, or undefined when the label names none we know. */
function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch (error) {
    if (error instanceof RangeError) return undefined; // an unknown label: the UTF-8 default applies
    throw error;
  }
}
