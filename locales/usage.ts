/**
 * Which keys of en.json the client's code uses. A key counts as used when
 *
 *  - its whole dotted path appears as a string literal somewhere under src/ (`t('series.title')`,
 *    `label: 'reader.next_page'`, a plural group's own path for `tPlural('books', n)`), or
 *  - a template literal under src/ builds it from a fixed prefix and run-time parts:
 *    `t(\`series_status.${status}\`)` uses every `series_status.<one segment>` key. Only templates whose
 *    fixed start is a top-level section of en.json count, so a generic helper such as
 *    `t(\`${key}.other\`)` does not declare every key used, or
 *  - it matches one of KEYS_BUILT_ELSEWHERE below.
 *
 * A key nobody uses is dead weight for 35 translators, so the locale test fails on one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Keys the scan above cannot see, each with the reason. Add a pattern here only when a key really is
 * built at run time in a way no literal or template shows (for instance a name sent by the server and
 * concatenated with `+`); prefer writing the key as a template literal, which the scan understands.
 */
export const KEYS_BUILT_ELSEWHERE: readonly { pattern: RegExp; why: string }[] = [
  // common.locale_name is read by locales/namesPlugin.ts at build time, not by code under src/.
  { pattern: /^common\.locale_name$/, why: 'read by locales/namesPlugin.ts at build time' },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface KeyReferences {
  literals: Set<string>;
  templates: RegExp[];
}

/** String literals and key-shaped template literals of every .ts/.tsx file under `srcDir`. */
export function collectReferences(srcDir: string, sections: Set<string>): KeyReferences {
  const literals = new Set<string>();
  const templates: RegExp[] = [];
  for (const file of sourceFiles(srcDir)) {
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"/g)) literals.add(match[1] ?? match[2]!);
    for (const match of code.matchAll(/`([^`]*)`/g)) {
      const text = match[1]!;
      // Split on `${…}` (one level of nested braces is enough for the expressions the client writes).
      const parts = text.split(/\$\{(?:[^{}]|\{[^{}]*\})*\}/);
      if (parts.length === 1) {
        literals.add(text);
        continue;
      }
      const section = /^([a-z_]+)\./.exec(parts[0]!)?.[1];
      if (!section || !sections.has(section)) continue;
      templates.push(new RegExp(`^${parts.map(escapeRegExp).join('[^.]+')}$`));
    }
  }
  return { literals, templates };
}

/** Keys (dotted, plural groups collapsed) that no code under `srcDir` refers to. */
export function unusedKeys(keys: readonly string[], srcDir: string): string[] {
  const sections = new Set(keys.map((key) => key.split('.')[0]!));
  const { literals, templates } = collectReferences(srcDir, sections);
  return keys.filter(
    (key) =>
      !literals.has(key) &&
      !templates.some((pattern) => pattern.test(key)) &&
      !KEYS_BUILT_ELSEWHERE.some(({ pattern }) => pattern.test(key)),
  );
}
