import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Right-to-left interfaces (ar, fa, he) mirror through CSS logical properties: `marginInlineStart`
 * rather than `marginLeft`, `insetInlineEnd` rather than `right`, `textAlign: 'start'`. This test reads
 * every vanilla-extract style file and every icon in the client and fails on a physical side.
 *
 * Allow-list: a line may keep a physical side when it ends with `// physical: <why>`, and only in the
 * files below, where screen coordinates are meant (the reader's page area is `dir="ltr"` and places
 * canvases at computed pixel offsets). Keep this list short; anywhere else, use the logical property.
 */
const PHYSICAL_ALLOWED_IN = new Set(['src/ui/reader/reader.css.ts']);

const root = join(import.meta.dirname, '..', '..', '..');

function files(dir: string, suffix: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path, suffix);
    return suffix.test(entry.name) ? [path] : [];
  });
}

const PHYSICAL: { pattern: RegExp; use: string }[] = [
  { pattern: /\b(margin|padding|scrollMargin|scrollPadding)(Left|Right)\b/, use: '…InlineStart / …InlineEnd' },
  { pattern: /\bborder(Left|Right)(Width|Color|Style)?\b/, use: 'borderInlineStart… / borderInlineEnd…' },
  { pattern: /\bborder(Top|Bottom)(Left|Right)Radius\b/, use: 'borderStartStartRadius and its siblings' },
  { pattern: /(^|[\s{,(])(left|right)\s*:/, use: 'insetInlineStart / insetInlineEnd (or insetInline)' },
  { pattern: /\b(textAlign|float|clear)\s*:\s*['"](left|right)['"]/, use: "'start' / 'end' (inline-start / inline-end)" },
  { pattern: /\b(margin|padding|border)-(left|right)\b|\btext-align:\s*(left|right)\b/, use: 'the logical property' },
  { pattern: /\btranslateX\(/, use: 'a layout that does not slide sideways (or flip it under :dir(rtl))' },
  {
    // Four-value shorthands whose right and left differ are physical: '0 8px 0 0'.
    pattern: /\b(margin|padding|inset|borderWidth|borderRadius)\s*:\s*['"]\S+ (\S+) \S+ (?!\2['"])\S+['"]/,
    use: 'marginBlock / marginInline and friends',
  },
];

describe('right-to-left readiness of the styles', () => {
  const styleFiles = files(join(root, 'src'), /\.css\.ts$/);

  it('finds the style files', () => {
    expect(styleFiles.length).toBeGreaterThan(10);
  });

  it('uses no physical left/right outside the documented allow-list', () => {
    const found: string[] = [];
    for (const file of styleFiles) {
      const name = relative(root, file);
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const code = line.replace(/\/\/.*$/, '').replace(/\/\*.*?\*\//g, '');
          const hit = PHYSICAL.find(({ pattern }) => pattern.test(code));
          if (!hit) return;
          const allowed = PHYSICAL_ALLOWED_IN.has(name) && /\/\/ physical: \S/.test(line);
          if (!allowed) found.push(`${name}:${index + 1}: ${line.trim()}  → use ${hit.use}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('flips every icon that points along the line', () => {
    const DIRECTIONAL = /<(Chevron(Left|Right|First|Last|sLeft|sRight)|Arrow(Left|Right)|Skip(Back|Forward)|Undo2?|Redo2?|LogOut|LogIn)\b([^>]*)>/g;
    const unflipped: string[] = [];
    for (const file of files(join(root, 'src'), /\.tsx$/)) {
      for (const match of readFileSync(file, 'utf8').matchAll(DIRECTIONAL)) {
        if (!/className=\{[^}]*flipInRtl/.test(match[0])) unflipped.push(`${relative(root, file)}: ${match[0]}`);
      }
    }
    expect(unflipped).toEqual([]);
  });
});
