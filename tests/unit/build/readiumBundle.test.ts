import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { FRAME_MESSAGE_EXPIRY_MS, readiumBundlePlugin } from '../../../build/readiumBundle.ts';

/*
 * The build patches the navigator's bundle (build/readiumBundle.ts): two never-active sibling `:has()`
 * selectors leave Readium CSS (with them every paragraph of a chapter was restyled whenever the
 * navigator added a blank page), and frame messages wait two minutes for their answer instead of 10 s
 * (a 5 MB chapter answered later than that and was never shown), and a frame hidden twice at once
 * (a jump back past the navigator's pool) finishes both hides.
 */
const bundlePath = createRequire(import.meta.url).resolve('@readium/navigator').replace(/index\.umd\.cjs$/, 'index.js');

type Transform = (this: { error(message: string): never }, code: string, id: string) => { code: string } | null;
const transform = readiumBundlePlugin().transform as Transform;
const context = { error: (message: string): never => { throw new Error(message); } };

describe('Readium CSS as Folio builds it', () => {
  it('has no sibling :has() selectors left in the navigator\'s bundle, and keeps the rule they were in', async () => {
    const code = await readFile(bundlePath, 'utf8');
    expect(code).toContain('div:has(+*)>p:has(+h1)');
    const built = transform.call(context, code, bundlePath)!.code;
    expect(built).not.toContain(':has(+');
    expect(built).toContain(':root[style*=--USER__textAlign] p:not(blockquote p,figcaption p,header p,hgroup p,:root[style*=readium-experimentalHeaderFiltering-on] p[class*=title])');
  });

  it('keeps the iPadOS patch\'s text-zoom rules (two with :has()) for browsers that have -webkit-text-zoom only', async () => {
    const code = await readFile(bundlePath, 'utf8');
    const firstLine = ':root[style*=readium-iPadOSPatch-on] p:not(:has(b,cite,em,i,q,s,small,span,strong)):first-line{-webkit-text-zoom:normal}';
    expect(code.split(firstLine).length).toBe(3);
    const built = transform.call(context, code, bundlePath)!.code;
    expect(built.split(`@supports (-webkit-text-zoom:normal){${firstLine}}`).length).toBe(3);
    // Every text-zoom rule is inside such a block; the patch's other rule (text-size-adjust, which Chromium has) is not.
    expect(built.split('{-webkit-text-zoom:').length - 1).toBe(6);
    expect(built.split('@supports (-webkit-text-zoom:normal){').length - 1).toBe(6);
    expect(built).toContain('}:root[style*=readium-iPadOSPatch-on] body{-webkit-text-size-adjust:none}');
    // Rules found other than expected fail the build.
    expect(() => transform.call(context, code.replace(firstLine, ''), bundlePath)).toThrow(/iPadOS text-zoom rules/);
  });

  it('lets a frame answer the navigator\'s messages for two minutes, not 10 s', async () => {
    const code = await readFile(bundlePath, 'utf8');
    const expiry = (text: string) => {
      const name = /performance\.now\(\) - \w+\.time > ([\w$]+) &&/.exec(text)![1]!;
      return Number(new RegExp(`const ${name.replace(/\$/g, '\\$')} = ([0-9e]+);`).exec(text)![1]);
    };
    expect(expiry(code)).toBe(10_000);
    expect(expiry(transform.call(context, code, bundlePath)!.code)).toBe(FRAME_MESSAGE_EXPIRY_MS);
  });

  it('builds a chapter\'s frame from the cleaned document a resource offers, and from its text otherwise', async () => {
    const code = await readFile(bundlePath, 'utf8');
    const built = transform.call(context, code, bundlePath)!.code;
    const read = /async buildHtmlFrame\(t = !1\) \{([\s\S]*?)return this\.finalizeDOM/.exec(built)![1]!;
    expect(read).toContain('typeof folioResource.readDocument === "function" ? await folioResource.readDocument()');
    expect(read).toContain('folioDocument ?? new DOMParser().parseFromString(');
    // The check for a parse error stays, on whichever document the frame is built from.
    expect(read).toContain('A = i.querySelector("parsererror")');
  });

  it('shares a frame\'s hide under way with every caller, and shows it only once hidden', async () => {
    const code = await readFile(bundlePath, 'utf8');
    const built = transform.call(context, code, bundlePath)!.code;
    expect(built.split('return this.folioHiding ?? (').length).toBe(3);
    expect(built.split('this.folioHiding = void 0, this.comms?.halt(), t();').length).toBe(3);
    expect(built.split('async show(t) {\n    await this.folioHiding;').length).toBe(3);
    const hidingOtherwise = code.replaceAll('this.comms?.halt(), t();', 'this.comms?.halt(), this.hidden = !0, t();');
    expect(() => transform.call(context, hidingOtherwise, bundlePath)).toThrow(/no longer hides and shows frames/);
  });

  it('takes a fixed-layout book\'s viewport from the pages laid out for the current slide, one when one a screen', async () => {
    const code = await readFile(bundlePath, 'utf8');
    const built = transform.call(context, code, bundlePath)!.code;
    expect(built.split('return this.makeSpread(this.currentSlide).forEach((i) => {\n      t.readingOrder.push(i.href)').length).toBe(2);
    expect(built).not.toContain('return this.spreader.currentSpread(this.currentSlide, this.perPage).forEach((i) => {');
    const viewportOtherwise = code.replace('t.readingOrder.push(i.href), t.progressions.set(i.href', 't.readingOrder.push(i.href, 0), t.progressions.set(i.href');
    expect(() => transform.call(context, viewportOtherwise, bundlePath)).toThrow(/fixed-layout viewport/);
  });

  it('leaves other modules alone, and fails the build when the library changed', async () => {
    expect(transform.call(context, 'p:has(+h1){}', '/x/src/main.ts')).toBeNull();
    expect(() => transform.call(context, 'nothing here', '/x/node_modules/@readium/navigator/dist/index.js')).toThrow(/no longer has/);
    const code = await readFile(bundlePath, 'utf8');
    const withoutExpiry = code.replace('was never handled!', 'was dropped');
    expect(() => transform.call(context, withoutExpiry, bundlePath)).toThrow(/no longer expires/);
    const readingOtherwise = code.replace('const e = await this.pub.get(this.item).readAsString();', 'const e = await this.pub.get(this.item).readAsText();');
    expect(() => transform.call(context, readingOtherwise, bundlePath)).toThrow(/no longer reads a chapter/);
  });
});
