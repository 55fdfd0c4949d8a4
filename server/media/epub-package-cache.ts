import type { OpfPackage } from './epub-opf.ts';

/*
 * Parsed EPUB package documents, kept by book file (its path and the identity its descriptor
 * reads: file-identity.ts) beyond the handle that parsed them. Analysis parses the package; the
 * metadata import, the first WebPub manifest and the navigation each asked the archive pool's
 * handle again, which held no parse of its own, and the handle itself may have been closed and
 * reopened in between (a scan of other books): each parsed the package again, a 4 MiB document
 * costing up to seconds in the XML worker (bench/epub-package-reuse.ts). A file changed in place
 * has another identity, so a stale parse is never served.
 *
 * Bounded by packages and by items held (manifest items, spine references, credits and subjects:
 * a package may hold 20,000 items, MAX_PACKAGE_ITEMS), least recently used first out. Callers
 * share what is kept and must not change it.
 */
const MAX_PACKAGES = 256;
export const MAX_KEPT_PACKAGE_ITEMS = 100_000;

interface Kept {
  pkg: OpfPackage;
  weight: number;
}

const kept = new Map<string, Kept>();
let keptWeight = 0;

const weightOf = (pkg: OpfPackage) => 1 + pkg.manifest.length + pkg.spine.length + pkg.metadata.authors.length + pkg.metadata.tags.length;

/** The package kept for this file state, made most recently used; undefined when none is. */
export function keptPackage(key: string): OpfPackage | undefined {
  const found = kept.get(key);
  if (!found) return undefined;
  kept.delete(key);
  kept.set(key, found);
  return found.pkg;
}

/** Keeps a package for this file state, dropping the least recently used past the bounds. */
export function keepPackage(key: string, pkg: OpfPackage): void {
  const weight = weightOf(pkg);
  if (weight > MAX_KEPT_PACKAGE_ITEMS) return;
  const before = kept.get(key);
  if (before) {
    kept.delete(key);
    keptWeight -= before.weight;
  }
  kept.set(key, { pkg, weight });
  keptWeight += weight;
  for (const [oldest, entry] of kept) {
    if (kept.size <= MAX_PACKAGES && keptWeight <= MAX_KEPT_PACKAGE_ITEMS) break;
    kept.delete(oldest);
    keptWeight -= entry.weight;
  }
}

/** How many packages and items are kept (tests). */
export function keptPackages(): { packages: number; items: number } {
  return { packages: kept.size, items: keptWeight };
}
