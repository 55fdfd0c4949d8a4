// The one direction of imports (../shared/DESIGN.md "Layers"), checked by
// tests/unit/architecture.test.ts on every `npm test`. A rule here names a room and the rooms it
// may not reach; a violation fails the test with the file and the import that broke it.
/**
 * Image, barcode, archive and PDF libraries: only server/media may import them. Matched resolved
 * (node_modules/<name>/…) or not: a package whose exports map the resolver cannot follow (such as
 * zxing-wasm/reader) stays under its bare name.
 */
const MEDIA_LIBRARIES = '(^|node_modules/)(sharp|yauzl|yazl|archiver|node-unrar-js|7z-wasm|pdfjs-dist|mupdf|zxing-wasm)(/|$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'A cycle ties files that cannot be understood or tested apart.',
      severity: 'error', from: {}, to: { circular: true } },

    // Client: ui -> engine, api, workers; engine -> api types; workers and api know nothing above.
    { name: 'api-knows-no-ui-engine-workers', severity: 'error',
      from: { path: '^src/api/' }, to: { path: '^src/(ui|engine|workers)/' } },
    { name: 'engine-knows-no-ui', severity: 'error',
      from: { path: '^src/engine/' }, to: { path: '^src/ui/' } },
    { name: 'engine-uses-only-api-types', severity: 'error',
      from: { path: '^src/engine/' }, to: { path: '^src/api/', dependencyTypesNot: ['type-only'] } },
    { name: 'workers-know-no-ui-engine', severity: 'error',
      from: { path: '^src/workers/' }, to: { path: '^src/(ui|engine)/' } },
    { name: 'client-knows-no-server', severity: 'error',
      from: { path: '^src/' }, to: { path: '^server/' } },

    // Server: http -> domain -> media, db. Nothing below reaches up; the server takes only the
    // shared wire types from the client tree.
    { name: 'server-takes-only-wire-types-from-src', severity: 'error',
      from: { path: '^server/' }, to: { path: '^src/', pathNot: '^src/api/types\\.ts$' } },
    { name: 'wire-types-only-in-http', comment: 'Storage, domain and media work on their own types; http/dto maps them to the wire.',
      severity: 'error', from: { path: '^server/(db|domain|media)/' }, to: { path: '^src/' } },
    { name: 'db-is-the-bottom', severity: 'error',
      from: { path: '^server/db/' }, to: { path: '^server/(http|domain|media)/' } },
    { name: 'media-knows-no-http-domain-db', severity: 'error',
      from: { path: '^server/media/' }, to: { path: '^server/(http|domain|db)/' } },
    { name: 'sql-fragments-stay-in-db',
      comment: 'Repositories build content restrictions (from the viewing user) and special-list rules themselves; nobody above hands them SQL.',
      severity: 'error',
      from: { pathNot: '^server/db/' }, to: { path: '^server/db/search/(content-restriction|special-lists|sql-fragment)\\.ts$' } },
    { name: 'domain-knows-no-http', severity: 'error',
      from: { path: '^server/domain/' }, to: { path: '^server/http/' } },
    // Images and archives are server/media work: routes translate HTTP, the domain decides what is
    // drawn or rewritten and when; neither imports an image or archive library (types included).
    { name: 'http-does-no-media-work', comment: 'Routes translate HTTP; images and archives are server/media work.',
      severity: 'error',
      from: { path: '^server/http/' },
      to: { path: MEDIA_LIBRARIES } },
    { name: 'domain-does-no-media-work', comment: 'The domain decides what and when; server/media does the image and archive work.',
      severity: 'error',
      from: { path: '^server/domain/' },
      to: { path: MEDIA_LIBRARIES } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // TypeScript 7 has no compiler API yet; swc parses the sources for the cruiser.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
