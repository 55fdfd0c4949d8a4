import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { isPluralGroup, lookup, type Messages } from '../../../locales/check.ts';

/**
 * A message given a `count` says a number of something, and most languages change the word with the
 * number (Russian 1 серия, 3 серии, 5 серий; Arabic has six forms). With one fixed form translators
 * fell back to "Label: N" ("Прочитано: 5", "Gelesen: 5"). So a `t('key', { count })` must name a
 * plural group, read through tPlural; the exceptions say why no word there depends on the number.
 */
const NO_WORD_COUNTED: Record<string, string> = {
  'batch_edit_series.not_saved': 'two numbers in parentheses, "(3 of 5)", before the list of series',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

describe('counted messages', () => {
  it('are plural groups read through tPlural', () => {
    const singleForm: string[] = [];
    for (const file of sourceFiles(join(import.meta.dirname, '../../../src'))) {
      const code = readFileSync(file, 'utf8');
      for (const match of code.matchAll(/\bt\(\s*['"`]([\w.]+)['"`]\s*,\s*\{[^}]*\bcount\b/g)) {
        const key = match[1]!;
        if (!isPluralGroup(lookup(en as Messages, key)) && !NO_WORD_COUNTED[key]) singleForm.push(key);
      }
    }
    expect(singleForm).toEqual([]);
  });
});
