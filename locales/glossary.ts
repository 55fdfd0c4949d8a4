/**
 * The per-locale glossaries of domain words (locales/glossary/README.md explains the convention). The
 * terms every glossary must define are the first column of the README's "Terms every glossary
 * defines" table, so the list a translator reads and the list the test enforces are the same text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const glossaryDir = join(dirname(fileURLToPath(import.meta.url)), 'glossary');

/** Rows of every Markdown table in `text`, as trimmed cells; separator rows (`| --- |`) left out. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && line.endsWith('|') && line.length > 1)
    .map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()))
    .filter((cells) => !cells.every((cell) => /^:?-+:?$/.test(cell)));
}

/** The English terms of the README's required table, header row excluded. */
export function requiredTerms(): string[] {
  const readme = readFileSync(join(glossaryDir, 'README.md'), 'utf8');
  const section = readme.split(/^## Terms every glossary defines$/m)[1];
  if (!section) throw new Error('locales/glossary/README.md lost its "## Terms every glossary defines" section');
  const rows = tableRows(section.split(/^## /m)[0]!);
  return rows.slice(1).map((cells) => cells[0]!);
}

/** What is wrong with the glossary of `code`: missing file, missing terms, empty translations. */
export function glossaryProblems(code: string, terms: readonly string[] = requiredTerms()): string[] {
  const file = join(glossaryDir, `${code}.md`);
  if (!existsSync(file)) return [`no glossary: write locales/glossary/${code}.md (see locales/glossary/README.md)`];
  const rows = new Map(tableRows(readFileSync(file, 'utf8')).map((cells) => [cells[0]!, cells[1] ?? '']));
  const problems: string[] = [];
  for (const term of terms) {
    if (!rows.has(term)) problems.push(`glossary lacks the term "${term}"`);
    else if (rows.get(term) === '') problems.push(`glossary leaves "${term}" untranslated`);
  }
  return problems;
}
