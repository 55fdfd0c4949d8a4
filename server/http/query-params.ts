import { badRequest } from './errors.ts';

/**
 * Query-string helpers. Komga accepts lists as `k=a&k=b`, `k=a,b` and `k[]=a`; these read all three.
 */
export type RawQuery = Record<string, string | string[] | undefined>;

/** An enum value as Spring Boot's lenient converter reads it: case, `-`, `_` and spaces do not count. */
const enumKey = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * A list parameter of enum values (`read_status`, `status`, `media_status`), each given in its
 * canonical spelling. A value naming none of them is a 400, as Spring's conversion failure is in
 * Komga, not a filter that silently matches nothing.
 */
export function enumListParam<T extends string>(query: RawQuery, name: string, allowed: readonly T[]): T[] {
  return listParam(query, name).map((value) => {
    const match = allowed.find((a) => enumKey(a) === enumKey(value));
    if (match === undefined) throw badRequest(`Invalid value '${value}' for parameter ${name}: one of ${allowed.join(', ')}`);
    return match;
  });
}

export function listParam(query: RawQuery, name: string): string[] {
  const values = [query[name], query[`${name}[]`]].flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v.length > 0);
}

export function stringParam(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}

/**
 * A boolean query parameter as Spring's StringToBooleanConverter reads it: true, on, yes, 1 or
 * false, off, no, 0 in any case, blanks around them ignored; an empty value is no value. Any other
 * word is a 400, as Spring's conversion failure is in Komga, not a silent false.
 */
export function booleanParam(query: RawQuery, name: string): boolean | undefined {
  const value = stringParam(query, name)?.trim();
  if (value === undefined || value === '') return undefined;
  const parsed = springBoolean(value);
  if (parsed === undefined) throw badRequest(`Invalid value '${value}' for parameter ${name}: true or false`);
  return parsed;
}

const SPRING_TRUE = new Set(['true', 'on', 'yes', '1']);
const SPRING_FALSE = new Set(['false', 'off', 'no', '0']);

/** Spring's words for a boolean (trimmed, any case); undefined for any other text. */
export function springBoolean(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (SPRING_TRUE.has(word)) return true;
  if (SPRING_FALSE.has(word)) return false;
  return undefined;
}

/** Spring's NumberUtils.parseNumber for an Int: decimal digits with a sign, or a hexadecimal number (Integer.decode). */
const DECIMAL_INT = /^[+-]?\d+$/;
// Spring takes a hexadecimal number only unsigned or after "-" (NumberUtils.isHexNumber); "+0x1" goes to Integer.valueOf, which refuses it.
const HEX_INT = /^-?(?:0x|#)[0-9a-f]+$/i;

/**
 * A page number path variable as Spring converts it to Komga's `Int`: blanks removed, then decimal
 * digits or a hexadecimal number within 32 bits. Anything else ('1.0', '1e0', '0b1', 2^31) is a 400,
 * before the handler looks the book up; JavaScript's Number() would have read those as integers.
 */
export function pageNumberParam(text: string): number {
  const trimmed = text.replace(/\s/g, '');
  const hex = HEX_INT.test(trimmed);
  if (!hex && !DECIMAL_INT.test(trimmed)) throw badRequest('Page number must be an integer');
  const sign = trimmed.startsWith('-') ? -1 : 1;
  const number = hex ? sign * Number.parseInt(trimmed.replace(/^-?(?:0x|#)/i, ''), 16) : Number(trimmed);
  if (!Number.isSafeInteger(number) || number < -(2 ** 31) || number > 2 ** 31 - 1) throw badRequest('Page number must be an integer');
  return number;
}
