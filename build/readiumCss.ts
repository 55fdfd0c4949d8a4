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
 * Vite plugin removing those selectors from the navigator's bundle at build time. A new version of
 * the library without them fails the build, so the removal is looked at again rather than lost silently.
 */
export function readiumCssPlugin(): Plugin {
  return {
    name: 'folio-readium-css',
    enforce: 'pre',
    transform(code, id) {
      if (!NAVIGATOR_BUNDLE.test(id)) return null;
      const parts = code.split(HEADER_FILTERING_SELECTORS);
      if (parts.length === 1) {
        this.error(`Readium CSS no longer has the header-filtering selectors build/readiumCss.ts removes; check the rule and this plugin`);
      }
      return { code: parts.join(''), map: null };
    },
  };
}
