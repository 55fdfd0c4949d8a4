import { HttpFetcher, Link, Locator, Manifest, Publication, ReadingProgression, Resource, type Fetcher } from '@readium/shared';
import { getEpubManifest, getPositions } from '../../../api/readium.ts';
import type { R2Locator } from '../../../api/types.ts';
import { sanitizeMarkup } from './sanitizeMarkup.ts';

/** Resource requests carry the session cookie and the XHR marker (a 401 must not open a login popup). */
const authorisedFetch = (input: RequestInfo | URL, init?: RequestInit) =>
  fetch(input, { ...init, credentials: 'include', headers: { ...init?.headers, 'X-Requested-With': 'XMLHttpRequest' } });

/** An (X)HTML resource read through sanitizeMarkup; everything else passes untouched. */
class SanitizedResource extends Resource {
  readonly #inner: Resource;
  readonly #mediaType: string;
  readonly #rtl: boolean;

  constructor(inner: Resource, mediaType: string, rtl: boolean) {
    super();
    this.#inner = inner;
    this.#mediaType = mediaType;
    this.#rtl = rtl;
  }

  link(): Promise<Link> {
    return this.#inner.link();
  }

  length(): Promise<number | undefined> {
    return this.#inner.length();
  }

  async read(): Promise<Uint8Array | undefined> {
    const bytes = await this.#inner.read();
    if (bytes === undefined) return undefined;
    return new TextEncoder().encode(sanitizeMarkup(new TextDecoder().decode(bytes), this.#mediaType, { rtl: this.#rtl }));
  }

  close(): void {
    this.#inner.close();
  }
}

class SanitizingFetcher implements Fetcher {
  readonly #inner = new HttpFetcher(authorisedFetch);
  /** Set once the manifest says the book reads right to left. */
  rtl = false;

  links(): Link[] {
    return this.#inner.links();
  }

  get(link: Link): Resource {
    const resource = this.#inner.get(link);
    return link.mediaType.isHTML ? new SanitizedResource(resource, link.mediaType.string, this.rtl) : resource;
  }

  close(): void {
    this.#inner.close();
  }
}

export interface LoadedPublication {
  publication: Publication;
  /** The book's positions as the server numbers them (Komga's), in reading order. */
  positions: Locator[];
  /** The same positions as plain contract locators. */
  positionList: R2Locator[];
}

/** The book's WebPub manifest and positions, as the rendering library wants them. */
export async function loadPublication(bookId: string): Promise<LoadedPublication> {
  const [json, positions] = await Promise.all([getEpubManifest(bookId), getPositions(bookId)]);
  const manifest = Manifest.deserialize(json);
  if (!manifest) throw new Error('The book manifest could not be read');
  const fetcher = new SanitizingFetcher();
  fetcher.rtl = manifest.metadata.effectiveReadingProgression === ReadingProgression.rtl;
  const publication = new Publication({ manifest, fetcher });
  const locators = positions.positions.map((p) => Locator.deserialize(p)).filter((l): l is Locator => l !== undefined);
  if (locators.length === 0) throw new Error('The book has no positions');
  return { publication, positions: locators, positionList: positions.positions };
}
