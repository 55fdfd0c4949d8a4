/**
 * Translation checks against the English source.
 *
 *   node locales/check.ts
 *
 * checks every locale file next to this script against en.json and exits with 1 on any problem, so it
 * can gate a release (the locale unit test runs the same functions):
 *  - a key English has and the locale lacks, or one the locale has and English does not;
 *  - a `{{placeholder}}` renamed, dropped or added, or a brace left unbalanced;
 *  - a plural group (an object whose keys are plural categories, like `books.one` / `books.other`)
 *    without exactly the categories Intl.PluralRules reports for the locale (Arabic six, Polish and
 *    Russian four, Japanese one…), or a plural group turned into a plain string;
 *  - a text left as English wrote it (a key added with its English copied into every file), unless
 *    locales/same-as-english.ts lists it as a word the language shares with English;
 *  - a text addressing the reader the way the language's glossary avoids (du/Sie, tú/usted;
 *    locales/register.ts), or using a word it chose against (locales/avoided-terms.ts);
 *  - an empty string, a `common.locale_rtl` that disagrees with the language's script direction, a
 *    `common.locale_name` that is not the language's own name;
 *  - a missing or incomplete glossary (locales/glossary/README.md);
 *  - a key of en.json that no code under src/ uses (locales/usage.ts).
 * No dependencies: Node 22 runs it as is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glossaryProblems } from './glossary.ts';
import { avoidedTerms } from './avoided-terms.ts';
import { avoidedAddress } from './register.ts';
import { SAME_EVERYWHERE, SAME_IN } from './same-as-english.ts';
import { unusedKeys } from './usage.ts';

export type Messages = { [key: string]: string | Messages };

const PLURAL_CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/** An object is a plural group when every key is a plural category and `other` is among them. */
export function isPluralGroup(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return keys.includes('other') && keys.every((key) => PLURAL_CATEGORIES.has(key));
}

/** Dotted paths of every string, plural groups collapsed into their own path. */
export function flattenKeys(messages: Messages, prefix = ''): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' || isPluralGroup(value)) keys.push(path);
    else keys.push(...flattenKeys(value, path));
  }
  return keys;
}

export function lookup(messages: Messages, path: string): string | Messages | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of path.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return node;
}

/** The `{{name}}` placeholders a string (or every form of a plural group) uses, sorted. */
export function placeholders(value: string | Messages | undefined): string[] {
  const texts = typeof value === 'string' ? [value] : value ? Object.values(value).filter((v) => typeof v === 'string') : [];
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)) names.add(match[1]!);
  return [...names].sort();
}

export interface LocaleReport {
  code: string;
  missing: string[];
  extra: string[];
}

export function compareKeys(code: string, english: Messages, messages: Messages): LocaleReport {
  const source = new Set(flattenKeys(english));
  const target = new Set(flattenKeys(messages));
  return {
    code,
    missing: [...source].filter((key) => !target.has(key)),
    extra: [...target].filter((key) => !source.has(key)),
  };
}

export const localesDir = dirname(fileURLToPath(import.meta.url));

export function readLocale(code: string): Messages {
  return JSON.parse(readFileSync(join(localesDir, `${code}.json`), 'utf8')) as Messages;
}

/** Locale codes from the file names in locales/, English first. */
export function localeCodes(): string[] {
  const codes = readdirSync(localesDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => basename(name, '.json'))
    .filter((code) => code !== 'en')
    .sort();
  return ['en', ...codes];
}

/** Texts of a string or of every form of a plural group. */
function texts(value: string | Messages | undefined): string[] {
  if (typeof value === 'string') return [value];
  return value ? Object.values(value).filter((v): v is string => typeof v === 'string') : [];
}

/** Braces that are not part of a well-formed `{{name}}`: `{{count}`, `{ {name}}`, a lone `}}`. */
export function strayBraces(value: string | Messages | undefined): boolean {
  return texts(value).some((text) => /\{\{|\}\}/.test(text.replace(/\{\{\s*[\w.]+\s*\}\}/g, '')));
}

export function placeholderProblems(english: Messages, messages: Messages): string[] {
  const problems: string[] = [];
  for (const key of flattenKeys(messages)) {
    const source = lookup(english, key);
    if (source === undefined) continue;
    const value = lookup(messages, key);
    const want = placeholders(source).join(',');
    const got = placeholders(value).join(',');
    if (want !== got) problems.push(`${key}: placeholders {${want}} expected, {${got}} found`);
    if (strayBraces(value)) problems.push(`${key}: unbalanced {{ }} braces`);
  }
  return problems;
}

/** The plural categories of a language, sorted (Intl.PluralRules, cardinal). */
export function pluralCategories(code: string): string[] {
  return [...new Intl.PluralRules(code).resolvedOptions().pluralCategories].sort();
}

export function pluralProblems(code: string, english: Messages, messages: Messages): string[] {
  const categories = pluralCategories(code).join('/');
  const problems: string[] = [];
  for (const key of flattenKeys(messages)) {
    const value = lookup(messages, key);
    if (!isPluralGroup(value)) {
      if (isPluralGroup(lookup(english, key))) problems.push(`${key}: a plain string where English has a plural group`);
      continue;
    }
    const have = Object.keys(value).sort().join('/');
    if (have !== categories) problems.push(`${key}: plural forms ${have}, ${code} needs ${categories}`);
  }
  return problems;
}

/** Writing direction of a language from CLDR (Intl.Locale text info). */
export function scriptDirection(code: string): 'rtl' | 'ltr' {
  const locale = new Intl.Locale(code) as Intl.Locale & {
    getTextInfo?: () => { direction?: string };
    textInfo?: { direction?: string };
  };
  const info = locale.getTextInfo?.() ?? locale.textInfo;
  return info?.direction === 'rtl' ? 'rtl' : 'ltr';
}

/** Letters left once the placeholders are taken out: "{{page}} / {{total}}" has none to translate. */
function hasWords(text: string): boolean {
  return /\p{L}/u.test(text.replace(/\{\{\s*[\w.]+\s*\}\}/g, ''));
}

/**
 * Texts identical to English that have words in them (a plural group by its `other` form), other than
 * those same-as-english.ts lists for every language or for this one: most are a string copied from
 * en.json and never translated, and show English to a reader of the language.
 */
export function untranslatedProblems(code: string, english: Messages, messages: Messages): string[] {
  const allowed = new Set([...SAME_EVERYWHERE, ...(SAME_IN[code] ?? [])]);
  const problems: string[] = [];
  for (const key of flattenKeys(messages)) {
    if (allowed.has(key)) continue;
    const source = lookup(english, key);
    const value = lookup(messages, key);
    const sourceText = isPluralGroup(source) ? source.other : source;
    const text = isPluralGroup(value) ? value.other : value;
    if (typeof text === 'string' && text === sourceText && hasWords(text)) {
      problems.push(`${key}: "${text}" is English; translate it, or list it in locales/same-as-english.ts if ${code} says it so`);
    }
  }
  return problems;
}

/** Every text of a translation by key, each form of a plural group as `key[index]`. */
function allTexts(messages: Messages): Map<string, string> {
  const all = new Map<string, string>();
  for (const key of flattenKeys(messages)) {
    const value = lookup(messages, key);
    texts(value).forEach((text, index) => all.set(isPluralGroup(value) ? `${key}[${index}]` : key, text));
  }
  return all;
}

/**
 * Texts that address the reader the other way than the rest of the translation (locales/register.ts),
 * or use a word the glossary chose against (locales/avoided-terms.ts).
 */
export function registerProblems(code: string, messages: Messages): string[] {
  const all = allTexts(messages);
  return [
    ...avoidedAddress(code, all).map((key) => `${key}: addresses the reader otherwise than the rest of ${code} (locales/glossary/${code}.md)`),
    ...avoidedTerms(code, all).map((found) => `${found} (locales/glossary/${code}.md)`),
  ];
}

/** Empty strings, and the two `common.locale_*` entries the picker and `document.dir` rely on. */
export function metaProblems(code: string, messages: Messages): string[] {
  const problems = flattenKeys(messages)
    .filter((key) => texts(lookup(messages, key)).some((text) => text.trim() === ''))
    .map((key) => `${key}: empty`);
  const rtl = lookup(messages, 'common.locale_rtl');
  const expected = scriptDirection(code) === 'rtl' ? 'true' : 'false';
  if (rtl !== expected) problems.push(`common.locale_rtl: "${String(rtl)}", ${code} is written ${scriptDirection(code)} so it must be "${expected}"`);
  const name = lookup(messages, 'common.locale_name');
  // The language's own name, as CLDR spells it or a longer form of it ("Bahasa Indonesia" for "Indonesia").
  const own = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
  if (code !== 'en' && (typeof name !== 'string' || !name.toLocaleLowerCase(code).includes(own.toLocaleLowerCase(code)))) {
    problems.push(`common.locale_name: "${String(name)}" is not the language's own name (${own})`);
  }
  return problems;
}

/** Every problem of one translation, one line each; empty when the locale is complete and sound. */
export function localeProblems(code: string, english: Messages, messages: Messages): string[] {
  const { missing, extra } = compareKeys(code, english, messages);
  return [
    ...missing.map((key) => `${key}: missing`),
    ...extra.map((key) => `${key}: not in en.json`),
    ...placeholderProblems(english, messages),
    ...pluralProblems(code, english, messages),
    ...untranslatedProblems(code, english, messages),
    ...registerProblems(code, messages),
    ...metaProblems(code, messages),
    ...glossaryProblems(code),
  ];
}

export const sourceDir = join(localesDir, '..', 'src');

function main(): void {
  const english = readLocale('en');
  const total = flattenKeys(english).length;
  let problems = 0;
  for (const code of localeCodes().slice(1)) {
    const found = localeProblems(code, english, readLocale(code));
    const missing = found.filter((line) => line.endsWith(': missing')).length;
    console.log(`${code}: ${total - missing}/${total} keys, ${found.length} problem(s)`);
    for (const line of found) console.log(`  ${line}`);
    problems += found.length;
  }
  const unused = unusedKeys(flattenKeys(english), sourceDir);
  for (const key of unused) console.log(`en: ${key} is used nowhere under src/ (locales/usage.ts)`);
  problems += unused.length;
  if (problems > 0) process.exitCode = 1;
}

// Run only as a script, so the test can reuse the helpers above.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
