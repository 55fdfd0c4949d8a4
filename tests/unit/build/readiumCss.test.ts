import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readiumCssPlugin } from '../../../build/readiumCss.ts';

/*
 * The build removes two never-active sibling `:has()` selectors from Readium CSS (build/readiumCss.ts):
 * with them every paragraph of a chapter was restyled whenever the navigator added a blank page.
 */
const bundlePath = createRequire(import.meta.url).resolve('@readium/navigator').replace(/index\.umd\.cjs$/, 'index.js');

type Transform = (this: { error(message: string): never }, code: string, id: string) => { code: string } | null;
const transform = readiumCssPlugin().transform as Transform;
const context = { error: (message: string): never => { throw new Error(message); } };

describe('Readium CSS as Folio builds it', () => {
  it('has no sibling :has() selectors left in the navigator\'s bundle, and keeps the rule they were in', async () => {
    const code = await readFile(bundlePath, 'utf8');
    expect(code).toContain('div:has(+*)>p:has(+h1)');
    const built = transform.call(context, code, bundlePath)!.code;
    expect(built).not.toContain(':has(+');
    expect(built).toContain(':root[style*=--USER__textAlign] p:not(blockquote p,figcaption p,header p,hgroup p,:root[style*=readium-experimentalHeaderFiltering-on] p[class*=title])');
  });

  it('leaves other modules alone, and fails the build when the library changed', () => {
    expect(transform.call(context, 'p:has(+h1){}', '/x/src/main.ts')).toBeNull();
    expect(() => transform.call(context, 'nothing here', '/x/node_modules/@readium/navigator/dist/index.js')).toThrow(/no longer has/);
  });
});
