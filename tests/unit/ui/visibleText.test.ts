import { parseSync } from '@swc/core';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every word a person sees or hears comes from locales/en.json through `t`, so switching language
 * changes all of it. This test parses every component of the client and fails on text written in the
 * code where it is shown: JSX text, a string literal given as a child, and literal or template text
 * in the attributes a browser shows or reads aloud (aria-label, title, placeholder, alt, and our
 * components' `label`/`title` props). A template that glues translated pieces with its own words or
 * punctuation (`${t('a')}: ${name}`) fails too: word order and punctuation differ between languages
 * ("a : b" in French, "a：b" in Chinese), so the whole sentence is a message with placeholders.
 *
 * Symbols that are not words (an arrow, "+", "…", " · ", digits, a key cap drawn as "←") pass.
 */
const root = join(import.meta.dirname, '..', '..', '..');

/** Attributes whose value is shown (title tooltips, placeholders) or spoken (accessible names). */
const VISIBLE_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
  'title',
  'placeholder',
  'alt',
  'label',
]);

/**
 * Text a translator must be able to change: words, or punctuation that differs between languages
 * (a colon is " : " in French and "：" in Chinese, a comma "،" in Arabic, a question mark "؟").
 * Separators that read the same everywhere (" · ", " / ", "–", "…", arrows) pass.
 */
const TRANSLATABLE = /[\p{L}:;,?!()]/u;

type Node = { type?: string; span?: { start: number }; [key: string]: unknown };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.(d|css)\.ts$/.test(entry.name) ? [path] : [];
  });
}

function attributeName(node: Node): string {
  const name = node.name as Node;
  if (name.type === 'Identifier') return name.value as string;
  return ((name.name as Node | undefined)?.value as string | undefined) ?? '';
}

/** Static text of a template literal that is more than the spaces between its placeholders. */
function templateText(template: Node): string | undefined {
  const quasis = template.quasis as { cooked?: string; raw: string }[];
  const expressions = template.expressions as unknown[];
  const text = quasis.map((quasi) => quasi.cooked ?? quasi.raw).join('');
  // A lone placeholder (`${x}`) or placeholders joined by spaces only say nothing of their own.
  if (expressions.length > 0 && /^\s*$/.test(text)) return undefined;
  return /\S/.test(text) ? text : undefined;
}

/** The literal text a JSX value (attribute value or child expression) shows, branches of `a ? b : c` and `a || b` included. */
function literalTexts(value: Node | undefined): string[] {
  if (!value) return [];
  switch (value.type) {
    case 'StringLiteral':
      return TRANSLATABLE.test(value.value as string) ? [value.value as string] : [];
    case 'TemplateLiteral': {
      const text = templateText(value);
      return text !== undefined && TRANSLATABLE.test(text) ? [text] : [];
    }
    case 'ConditionalExpression':
      return [...literalTexts(value.consequent as Node), ...literalTexts(value.alternate as Node)];
    case 'BinaryExpression':
      return ['||', '??', '&&'].includes(value.operator as string) ? [...literalTexts(value.left as Node), ...literalTexts(value.right as Node)] : [];
    case 'ParenthesisExpression':
      return literalTexts(value.expression as Node);
    default:
      return [];
  }
}

/** `file:line: what` for each piece of text shown without going through the locale files. */
export function hardCodedText(file: string, source: string): string[] {
  const module = parseSync(source, { syntax: 'typescript', tsx: true }) as unknown as Node;
  // swc's offsets run on across calls; the module's own span is where this file begins.
  const offset = (module.span as { start: number }).start - (source.length - source.trimStart().length);
  const line = (at: number) => source.slice(0, at - offset).split('\n').length;
  const found: string[] = [];
  const report = (node: Node, what: string, skip = 0) => found.push(`${file}:${line((node.span?.start ?? offset) + skip)}: ${what}`);

  const visit = (node: unknown, isChild: boolean): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, isChild);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const current = node as Node;
    if (current.type === 'JSXText' && TRANSLATABLE.test(current.value as string)) {
      const text = current.value as string;
      // JSX text begins right after the tag before it; its line is that of its first word.
      report(current, `JSX text ${JSON.stringify(text.trim())}`, Buffer.byteLength(text) - Buffer.byteLength(text.trimStart()));
    }
    if (current.type === 'JSXExpressionContainer' && isChild) {
      for (const text of literalTexts(current.expression as Node)) report(current, `child text ${JSON.stringify(text)}`);
    }
    if (current.type === 'JSXAttribute' && VISIBLE_ATTRIBUTES.has(attributeName(current))) {
      let value = current.value as Node | undefined;
      if (value?.type === 'JSXExpressionContainer') value = value.expression as Node;
      for (const text of literalTexts(value)) report(current, `${attributeName(current)}= ${JSON.stringify(text)}`);
    }
    for (const [key, child] of Object.entries(current)) {
      if (key !== 'span') visit(child, key === 'children');
    }
  };
  visit(module, false);
  return found;
}

const TRANSLATE = new Set(['t', 'tPlural']);

/** Whether a node is, or holds, a call of `t`/`tPlural`. */
function callsTranslate(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(callsTranslate);
  if (!node || typeof node !== 'object') return false;
  const current = node as Node;
  if (current.type === 'CallExpression' && (current.callee as Node).type === 'Identifier' && TRANSLATE.has((current.callee as Node).value as string)) return true;
  return Object.entries(current).some(([key, child]) => key !== 'span' && callsTranslate(child));
}

/**
 * Templates anywhere in the client (.ts too) that join two translated texts with text of their own:
 * `${where} ${again}` puts a space between two sentences where Chinese and Japanese put none, and fixes
 * their order. A translated text is a `t()` call, or a name bound to an expression that calls `t`.
 */
export function gluedTranslations(file: string, source: string): string[] {
  const module = parseSync(source, { syntax: 'typescript', tsx: file.endsWith('.tsx') }) as unknown as Node;
  const offset = (module.span as { start: number }).start - (source.length - source.trimStart().length);
  const translatedNames = new Set<string>();
  const templates: Node[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const current = node as Node;
    if (current.type === 'VariableDeclarator' && (current.id as Node).type === 'Identifier' && callsTranslate(current.init)) {
      translatedNames.add((current.id as Node).value as string);
    }
    // A template literal type (`${A}-${B}` in a type) has `types`, not `expressions`: not text.
    if (current.type === 'TemplateLiteral' && Array.isArray(current.expressions)) templates.push(current);
    for (const [key, child] of Object.entries(current)) if (key !== 'span') visit(child);
  };
  visit(module);
  const translated = (expression: Node) =>
    callsTranslate(expression) || (expression.type === 'Identifier' && translatedNames.has(expression.value as string));
  return templates.flatMap((template) => {
    const expressions = template.expressions as Node[];
    const quasis = template.quasis as { cooked?: string; raw: string }[];
    for (let index = 1; index < expressions.length; index += 1) {
      const between = quasis[index]!.cooked ?? quasis[index]!.raw;
      if (between !== '' && translated(expressions[index - 1]!) && translated(expressions[index]!)) {
        const line = source.slice(0, (template.span?.start ?? offset) - offset).split('\n').length;
        return [`${file}:${line}: ${JSON.stringify(between)} between two translated texts`];
      }
    }
    return [];
  });
}

describe('visible text of the client', () => {
  const files = sourceFiles(join(root, 'src'));
  const components = files.filter((file) => file.endsWith('.tsx'));

  it('finds the components', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('catches each kind of hard-coded text', () => {
    const sample = [
      'export const A = () => (',
      '  <div title="Close" aria-label={`${t("a")}: ${name}`} placeholder={busy ? t("b") : "Search"}>',
      '    Hello',
      "    {'Loading…'}",
      '    {`${count} of ${total}`}',
      '    <img alt={t("c")} src="x.png" />',
      '    {t("d")} → {`${first} ${last}`}',
      '  </div>',
      ');',
    ].join('\n');
    expect(hardCodedText('sample.tsx', sample)).toEqual([
      'sample.tsx:2: title= "Close"',
      'sample.tsx:2: aria-label= ": "',
      'sample.tsx:2: placeholder= "Search"',
      'sample.tsx:3: JSX text "Hello"',
      'sample.tsx:4: child text "Loading…"',
      'sample.tsx:5: child text " of "',
    ]);
  });

  it('shows no text that bypasses locales/en.json', () => {
    const found = components.flatMap((file) => hardCodedText(relative(root, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('catches translated texts glued with words, spaces or punctuation of the code', () => {
    const sample = [
      "const where = t('a');",
      "const again = sibling ? t('b') : t('c');",
      'show(`${where} ${again}`);',
      "show(`${t('d')}: ${name}`, `${count} ${t('e')}`, `${where}${again}`);",
      "show(`${t('f')} · ${t('g')}`);",
    ].join('\n');
    expect(gluedTranslations('sample.ts', sample)).toEqual([
      'sample.ts:3: " " between two translated texts',
      'sample.ts:5: " · " between two translated texts',
    ]);
  });

  it('joins no two translated texts in code (a message with both as placeholders does)', () => {
    const found = files.flatMap((file) => gluedTranslations(relative(root, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
