import { resolve } from 'node:path';
import type { HtmlTagDescriptor, Plugin } from 'vite';

/** The boot entry's source, relative to the project root. */
const BOOT_SOURCE = 'src/ui/boot.ts';
/** Marks the main bundle's preload in the built page: the boot module runs what it names (src/ui/boot.ts). */
const APP_MARK = 'data-folio-app';

/**
 * Vite plugin for the boot entry (src/ui/boot.ts): built as an entry of its own, beside the app's
 * index.html, and loaded by index.html ahead of the main bundle. Vite would fold a second
 * `<script type="module">` written in index.html into the main bundle, so the tag is added here, to the
 * built page (with the hashed file name) and to the dev server's. Modules both entries import end up in
 * chunks they share, so the two run one instance of each. The CSP allows no inline script: it is a file.
 */
export function bootEntryPlugin(root: string): Plugin {
  const page = resolve(root, 'index.html');
  let base = '/';
  return {
    name: 'folio-boot-entry',
    config(_config, env) {
      if (env.command !== 'build') return undefined;
      return { build: { rollupOptions: { input: { main: page, boot: resolve(root, BOOT_SOURCE) } } } };
    },
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (resolve(context.filename) !== page) return undefined;
        // async: it runs the moment it (and the little it imports) has arrived, not after the parse and
        // the style sheets like a deferred module script; the order against the main bundle does not matter.
        const script = (src: string): HtmlTagDescriptor => ({
          tag: 'script',
          attrs: { type: 'module', async: true, crossorigin: true, src },
          injectTo: 'head-prepend',
        });
        if (!context.bundle) return [script(`/${BOOT_SOURCE}`)];
        const bundle = context.bundle;
        const chunk = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry && output.name === 'boot');
        if (!chunk || chunk.type !== 'chunk') throw new Error(`the boot entry (${BOOT_SOURCE}) is missing from the build`);
        // Everything the boot module imports is asked for first, ahead of the main bundle's larger
        // chunks: the browser opens about six connections per server, and the boot module runs only
        // once the last of its imports has arrived.
        const imports: string[] = [];
        const visit = (fileName: string) => {
          const output = bundle[fileName];
          if (!output || output.type !== 'chunk') return;
          for (const imported of output.imports) {
            if (imports.includes(imported)) continue;
            imports.push(imported);
            visit(imported);
          }
        };
        visit(chunk.fileName);
        // The main bundle is preloaded (downloaded and compiled, not run) and the boot module runs it:
        // on a cold load of a reader's address only once the book's first frame is up, before that at
        // once (src/ui/reader/openingPaint.ts). Its own module preloads and style sheets stay as they are.
        const main = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry && output.name === 'main');
        if (!main || main.type !== 'chunk') throw new Error('the main bundle is missing from the build');
        const mainScript = `<script type="module" crossorigin src="${base}${main.fileName}"></script>`;
        if (!html.includes(mainScript)) throw new Error(`index.html does not load the main bundle as expected (${mainScript})`);
        const preloadedMain = `<link rel="modulepreload" crossorigin href="${base}${main.fileName}" ${APP_MARK}>`;
        const tags: HtmlTagDescriptor[] = [
          script(`${base}${chunk.fileName}`),
          ...imports.map((fileName): HtmlTagDescriptor => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${fileName}` },
            injectTo: 'head-prepend',
          })),
        ];
        return { html: html.replace(mainScript, preloadedMain), tags };
      },
    },
  };
}
