import { describe, expect, it } from 'vitest';
import { decodeXmlText } from '../../../server/media/xml-text.ts';

describe('decodeXmlText', () => {
  const doc = '<?xml version="1.0"?><a>Ünï ページ</a>';
  it('follows a byte order mark (UTF-8, UTF-16 either way) and drops it', () => {
    expect(decodeXmlText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(doc)]))).toBe(doc);
    expect(decodeXmlText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doc, 'utf16le')]))).toBe(doc);
    expect(decodeXmlText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(doc, 'utf16le').swap16()]))).toBe(doc);
  });
  it('recognises UTF-16 without a mark by its opening "<?"', () => {
    expect(decodeXmlText(Buffer.from(doc, 'utf16le'))).toBe(doc);
    expect(decodeXmlText(Buffer.from(doc, 'utf16le').swap16())).toBe(doc);
  });
  it('uses the encoding the declaration names, UTF-8 when it names none, an unknown one, or a UTF-16 the bytes are not', () => {
    const latin = '<?xml version="1.0" encoding="ISO-8859-1"?><a>Café</a>';
    expect(decodeXmlText(Buffer.from(latin, 'latin1'))).toBe(latin);
    expect(decodeXmlText(Buffer.from(doc))).toBe(doc);
    const unknown = '<?xml version="1.0" encoding="x-no-such"?><a>é</a>';
    expect(decodeXmlText(Buffer.from(unknown))).toBe(unknown);
    const lying = '<?xml version="1.0" encoding="UTF-16"?><a>é</a>';
    expect(decodeXmlText(Buffer.from(lying))).toBe(lying);
  });
});
