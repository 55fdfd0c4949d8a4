import type { Plugin } from 'vite';

/** The rendering library's bundle, which carries Readium CSS as text. */
const NAVIGATOR_BUNDLE = /[\\/]@readium[\\/]navigator[\\/]dist[\\/]index\.js$/;

/**
 * Two selectors of Readium CSS's text-alignment rule, inside its `p:not(…)` list, for an
 * experimental "header filtering" that only applies with a flag on the root's style
 * (`readium-experimentalHeaderFiltering-on`) the navigator never writes. Being sibling `:has()`
 * selectors inside a `:not()` on `p`, the browser marks every paragraph of a chapter as depending on
 * its siblings, and then restyles every paragraph whenever an element is added to the body: the
 * navigator adds a blank page after an odd column, twice or three times as a chapter opens, which
 * cost about a second each time in a 2 MB chapter. Without them the rule matches exactly what it did.
 */
const HEADER_FILTERING_SELECTORS =
  ',:root[style*=readium-experimentalHeaderFiltering-on] div:has(+*)>h1+p,:root[style*=readium-experimentalHeaderFiltering-on] div:has(+*)>p:has(+h1)';

/**
 * Readium CSS's iPadOS patch sets WebKit's `-webkit-text-zoom` on text elements, in three rules; two
 * of them select through `:not(:has(…))` (`p:not(:has(b,cite,em,…))::first-line`, `div:not(:has(p,…))`).
 * Browsers match a rule's right end first, so every paragraph (and div) of a chapter runs its
 * `:has()` over its descendants before the `:root[style*=readium-iPadOSPatch-on]` test rules it out:
 * in a 2 MB chapter 718 ms of the 1,669 ms Chromium spent matching selectors (selector stats trace),
 * for a rule that sets a property Chromium and Firefox do not have. Each of these rules is wrapped in
 * `@supports (-webkit-text-zoom: normal)`: a browser without the property drops the rule when it
 * parses the sheet, and WebKit (iPadOS, where the patch is for) keeps it as it was.
 */
const TEXT_ZOOM_RULE = /(?<=\})(:root\[style\*=readium-iPadOSPatch-on\][^{}]*)\{(-webkit-text-zoom:(?:normal|reset))\}/g;
/** Three rules in each of the bundle's two copies of Readium CSS. */
const TEXT_ZOOM_RULES = 6;

/** The rules of TEXT_ZOOM_RULE kept for browsers that have the property, or null when not exactly `count` are found. */
function textZoomForWebKitOnly(code: string, count: number): string | null {
  let found = 0;
  const patched = code.replace(TEXT_ZOOM_RULE, (_, selectors: string, declaration: string) => {
    found++;
    return `@supports (-webkit-text-zoom:normal){${selectors}{${declaration}}}`;
  });
  return found === count ? patched : null;
}

/**
 * How long the navigator waits for a frame to answer one of its messages before it forgets the
 * answer's callback (its `REGISTRY_EXPIRY`, 10 s). A frame busy laying out a 5 MB chapter on a slow
 * or busy machine answered `activate` after more than 10 s: the callback was gone, the frame was
 * never shown and the reader stayed on its loading note for ever. A late answer is still the answer;
 * two minutes only bounds how long a callback of a frame that went away is kept.
 */
export const FRAME_MESSAGE_EXPIRY_MS = 120_000;
/** The expiry check in the navigator's frame messaging, naming the (minified) constant it reads. */
const EXPIRY_CHECK = /performance\.now\(\) - \w+\.time > ([\w$]+) && \(console\.warn\(\w+, "event for", \w+\.key, "was never handled!"\)/;

/**
 * Where the navigator builds a reflowable chapter's frame document: it reads the resource as text
 * and parses it. Folio's resources are cleaned documents (sanitizeMarkup.ts) which were parsed and
 * cleaned as a DOM, serialized, then parsed here again: for a 2 MB chapter a serialization and a
 * parse of 2 MB (0.3-1.3 s on a busy machine) for the same tree. Patched, the navigator takes the
 * cleaned document itself from a resource that offers one (`readDocument()`, SanitizedResource),
 * and reads and parses text as before from any other. What the frame is built from is the same
 * cleaned tree either way; the navigator still serializes it into the frame's blob.
 */
const HTML_FRAME_READ =
  'const e = await this.pub.get(this.item).readAsString();\n    if (!e) throw new Error(`Failed reading item ${this.item.href}`);\n    const i = new DOMParser().parseFromString(\n      e,\n      this.item.mediaType.string\n    ), A = i.querySelector("parsererror");';
const HTML_FRAME_READ_PATCHED =
  'const folioResource = this.pub.get(this.item), folioDocument = typeof folioResource.readDocument === "function" ? await folioResource.readDocument() : void 0, e = folioDocument ? "" : await folioResource.readAsString();\n    if (!folioDocument && !e) throw new Error(`Failed reading item ${this.item.href}`);\n    const i = folioDocument ?? new DOMParser().parseFromString(\n      e,\n      this.item.mediaType.string\n    ), A = i.querySelector("parsererror");';

/**
 * How the navigator hides a frame of flowing text (FrameManager.hide, the same code in its EPUB and
 * WebPub managers): it asks the frame to "unfocus" and, on the answer, halts the frame's messaging,
 * which forgets every callback still waiting. Two hides of one frame at once therefore finish only
 * once: the first answer halts the messaging and the second hide's answer is never heard. That
 * happens on every jump back past the pool's window (Shift+← into the previous chapter, Home from
 * chapter 2, the contents, the slider, Back after a link): FramePoolManager.update drops the frame
 * on screen from the pool (destroy(), which hides it, not awaited) and, in the same update, hides it
 * as the old current frame before showing the new one. The second hide never resolved, so neither
 * did update(), the navigator's go() (no callback, no position reported), nor any later go() to that
 * chapter (it waits on the same update). Patched, a hide under way is shared by every caller, and a
 * show waits for a hide of its own frame under way, so the halt that ends the hide cannot drop the
 * show's messages. Related upstream: readium/ts-toolkit issue 181 (destroy() hangs on an unanswered unfocus).
 */
const FRAME_HIDE =
  '        return this.comms === void 0 || !this.comms.ready ? void 0 : new Promise((t, e) => {\n          this.comms?.send("unfocus", void 0, (i) => {\n            this.comms?.halt(), t();\n          });\n        });';
const FRAME_HIDE_PATCHED =
  '        return this.folioHiding ?? (this.comms === void 0 || !this.comms.ready ? void 0 : this.folioHiding = new Promise((t, e) => {\n          this.comms?.send("unfocus", void 0, (i) => {\n            this.folioHiding = void 0, this.comms?.halt(), t();\n          });\n        }));';
const FRAME_SHOW = 'async show(t) {\n    if (this.destroyed) throw Error("Trying to show frame when it doesn\'t exist");';
const FRAME_SHOW_PATCHED = 'async show(t) {\n    await this.folioHiding;\n    if (this.destroyed) throw Error("Trying to show frame when it doesn\'t exist");';
/** The navigator's two managers of flowing-text frames (EPUB and WebPub) carry the same hide and show. */
const FRAME_MANAGERS = 2;

/**
 * What a fixed-layout book shows (FXLFramePoolManager's viewport): the spread the current page is in,
 * looked up as though two pages were shown side by side even when one is (a phone held upright,
 * one page a screen). From page 1 a tap showed page 2 while the viewport named the spread p2-p3: the
 * navigator reported page 3, the reader said "page 3 of 3" over page 2, and since the book's last
 * page was "shown" it could not go forward to it. Patched, the viewport is the pages the pool itself
 * lays out for the current slide (its makeSpread: one page when one a screen, else the spread), as
 * its currentFrames and page numbers already are.
 */
const FXL_VIEWPORT = 'return this.spreader.currentSpread(this.currentSlide, this.perPage).forEach((i) => {\n      t.readingOrder.push(i.href)';
const FXL_VIEWPORT_PATCHED = 'return this.makeSpread(this.currentSlide).forEach((i) => {\n      t.readingOrder.push(i.href)';

/** `code` with `from` replaced by `to`, exactly `count` times, or null when it is not found that often. */
function replaceExactly(code: string, from: string, to: string, count: number): string | null {
  const parts = code.split(from);
  return parts.length === count + 1 ? parts.join(to) : null;
}

/**
 * Vite plugin patching the navigator's bundle at build time: the selectors above go, the iPadOS
 * text-zoom rules apply in WebKit only, frame messages wait FRAME_MESSAGE_EXPIRY_MS, chapters are
 * built from the cleaned document, a frame's hide is shared by its callers, and a fixed-layout
 * viewport is the pages shown. A new version of the library where any is not found fails the
 * build, so the patch is looked at again rather than lost silently.
 */
export function readiumBundlePlugin(): Plugin {
  return {
    name: 'folio-readium-bundle',
    enforce: 'pre',
    transform(code, id) {
      if (!NAVIGATOR_BUNDLE.test(id)) return null;
      const parts = code.split(HEADER_FILTERING_SELECTORS);
      if (parts.length === 1) {
        this.error('Readium CSS no longer has the header-filtering selectors build/readiumBundle.ts removes; check the rule and this plugin');
      }
      const zoomed = textZoomForWebKitOnly(parts.join(''), TEXT_ZOOM_RULES);
      if (!zoomed) {
        this.error('Readium CSS no longer has the iPadOS text-zoom rules build/readiumBundle.ts keeps for WebKit only; check the patch and this plugin');
      }
      let patched = zoomed;
      const expiry = EXPIRY_CHECK.exec(patched)?.[1];
      const declaration = expiry ? `const ${expiry} = 1e4;` : null;
      if (!declaration || patched.split(declaration).length !== 2) {
        this.error('The navigator no longer expires frame messages as build/readiumBundle.ts expects; check FrameComms and this plugin');
      }
      patched = patched.replace(declaration, `const ${expiry} = ${FRAME_MESSAGE_EXPIRY_MS};`);
      if (patched.split(HTML_FRAME_READ).length !== 2) {
        this.error('The navigator no longer reads a chapter as build/readiumBundle.ts expects; check buildHtmlFrame and this plugin');
      }
      patched = patched.replace(HTML_FRAME_READ, HTML_FRAME_READ_PATCHED);
      const shared = replaceExactly(patched, FRAME_HIDE, FRAME_HIDE_PATCHED, FRAME_MANAGERS);
      const waiting = shared && replaceExactly(shared, FRAME_SHOW, FRAME_SHOW_PATCHED, FRAME_MANAGERS);
      if (!waiting) {
        this.error('The navigator no longer hides and shows frames as build/readiumBundle.ts expects; check FrameManager.hide/show and this plugin');
      }
      const viewport = replaceExactly(waiting, FXL_VIEWPORT, FXL_VIEWPORT_PATCHED, 1);
      if (!viewport) {
        this.error('The navigator no longer finds a fixed-layout viewport as build/readiumBundle.ts expects; check FXLFramePoolManager.viewport and this plugin');
      }
      return { code: viewport, map: null };
    },
  };
}
