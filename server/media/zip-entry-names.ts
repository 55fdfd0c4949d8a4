import { crc32 } from 'node:zlib';
import type yauzl from 'yauzl';

/*
 * How a zip entry's name is read. Zips from Windows and Japanese tools store names in the writer's
 * code page (CP437, Shift-JIS…) with no flag saying which; Info-ZIP and 7-Zip then add a "Unicode
 * Path" extra field (id 0x7075) holding the same name in UTF-8, together with the CRC32 of the
 * header's name it stands for. That field is trusted only when its CRC matches the header's bytes:
 * a tool that renamed the entry without updating the field left a stale name there.
 */

const UNICODE_PATH_FIELD = 0x7075;
const UNICODE_PATH_VERSION = 1;
/** Version (1 byte) and the CRC32 of the header's name (4 bytes), before the UTF-8 name. */
const UNICODE_PATH_HEADER_BYTES = 5;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8, or undefined when they are not valid UTF-8. */
function utf8OrUndefined(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return undefined;
  }
}

/**
 * The name from the header's bytes alone: UTF-8 when the archive says so (bit 11) or when the
 * bytes are valid UTF-8, otherwise Latin-1 (every byte kept, one character each). This was the
 * only reading before the Unicode Path field was read: books analysed then recorded these names.
 */
export function headerEntryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer | string;
  if (typeof raw === 'string') return raw;
  if ((entry.generalPurposeBitFlag & 0x800) !== 0) return raw.toString('utf8');
  return utf8OrUndefined(raw) ?? raw.toString('latin1');
}

/** The UTF-8 name of a valid Unicode Path field for the header's name bytes, if there is one. */
function unicodePathName(entry: yauzl.Entry): string | undefined {
  const raw = entry.fileName as unknown as Buffer | string;
  if (typeof raw === 'string') return undefined;
  for (const field of entry.extraFields ?? []) {
    if (field.id !== UNICODE_PATH_FIELD || field.data.length <= UNICODE_PATH_HEADER_BYTES) continue;
    // A later version may mean something else: the format says to ignore it.
    if (field.data[0] !== UNICODE_PATH_VERSION) continue;
    if (field.data.readUInt32LE(1) !== crc32(raw)) continue;
    const name = utf8OrUndefined(field.data.subarray(UNICODE_PATH_HEADER_BYTES));
    if (name !== undefined && name.length > 0) return name;
  }
  return undefined;
}

/** The entry's name: its valid Unicode Path field's when it has one, else the header's. */
export function decodeEntryName(entry: yauzl.Entry): string {
  return unicodePathName(entry) ?? headerEntryName(entry);
}
