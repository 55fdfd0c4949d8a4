import type { R2Locator, R2Progression } from '../api/types.ts';

/*
 * The EPUB reader's position in Komga's terms: Readium locators and R2Progression, pure functions
 * so they can be checked against the contract without a browser.
 */

/** The entry path of an EPUB resource URL (what follows `/resource/`), decoded; the href itself otherwise. */
export function resourcePath(href: string): string {
  const bare = href.split('#')[0]!.split('?')[0]!;
  const marker = bare.indexOf('/resource/');
  const path = marker >= 0 ? bare.slice(marker + '/resource/'.length) : bare;
  try {
    return path.split('/').map(decodeURIComponent).join('/');
  } catch (error) {
    if (error instanceof URIError) return path;
    throw error;
  }
}

const finite = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A locator reduced to the contract's fields (R2Locator), whatever extra the renderer keeps in it. */
export function toR2Locator(locator: R2Locator): R2Locator {
  const locations = locator.locations ?? {};
  const progression = finite(locations.progression);
  const position = finite(locations.position);
  const total = finite(locations.totalProgression);
  const fragments = Array.isArray(locations.fragments) ? locations.fragments.filter((f) => typeof f === 'string') : [];
  return {
    href: locator.href,
    type: locator.type || 'application/xhtml+xml',
    ...(locator.title ? { title: locator.title } : {}),
    locations: {
      fragments,
      ...(position !== undefined ? { position } : {}),
      progression: Math.min(1, Math.max(0, progression ?? 0)),
      ...(total !== undefined ? { totalProgression: Math.min(1, Math.max(0, total)) } : {}),
    },
  };
}

/** What PUT /progression takes: the locator, when (now) and from which device. */
export function progressionOf(locator: R2Locator, device: { id: string; name: string }, now: Date): R2Progression {
  return { modified: now.toISOString(), device: { id: device.id, name: device.name }, locator: toR2Locator(locator) };
}

/** Two locators name the same place (same document, position and progression): nothing new to save. */
export function samePlace(a: R2Locator, b: R2Locator): boolean {
  return (
    resourcePath(a.href) === resourcePath(b.href) &&
    a.locations?.position === b.locations?.position &&
    Math.abs((a.locations?.progression ?? 0) - (b.locations?.progression ?? 0)) < 1e-6
  );
}

/**
 * Where to reopen a book from a saved locator (ours or another client's, whose hrefs may name
 * another host): the book's position that holds it — the last one of the same document starting at
 * or before the saved progression — and the saved locator rewritten onto that position's href.
 * Null when the locator names no document of this book.
 */
export function restorePoint(saved: R2Locator, positions: readonly R2Locator[]): { position: R2Locator; target: R2Locator } | null {
  const path = resourcePath(saved.href);
  const fragment = saved.href.includes('#') ? saved.href.slice(saved.href.indexOf('#')) : '';
  const candidates = positions.filter((p) => resourcePath(p.href) === path);
  if (candidates.length === 0) return null;
  const progression = finite(saved.locations?.progression) ?? 0;
  const position = candidates.filter((p) => (p.locations?.progression ?? 0) <= progression + 1e-9).at(-1) ?? candidates[0]!;
  const target: R2Locator = {
    ...saved,
    href: `${position.href.split('#')[0]}${fragment}`,
    type: saved.type || position.type,
    locations: { ...saved.locations, position: position.locations?.position, progression },
  };
  return { position, target };
}

/**
 * The locator numbered as Folio numbers a place everywhere else: by the position holding its
 * progression, the last of its document starting at or before it (the page the server stores for
 * it, pageOfLocator, and the one restorePoint reopens at). The navigator names the first position
 * starting at or after the screen's start instead, one further whenever a screen starts inside a
 * position, so the reader said "page 4" where the book's page said 3. The navigator's position is
 * one of the two, so only the position before it is looked at (a book may have 100,000 positions).
 */
export function heldPosition(locator: R2Locator, positions: readonly R2Locator[]): R2Locator {
  const named = finite(locator.locations?.position);
  const progression = finite(locator.locations?.progression);
  if (named === undefined || progression === undefined) return locator;
  const at = positions[named - 1];
  const before = positions[named - 2];
  if (!at || !before || (at.locations?.progression ?? 0) <= progression + 1e-9) return locator;
  const path = resourcePath(locator.href);
  if (resourcePath(at.href) !== path || resourcePath(before.href) !== path) return locator;
  const total = finite(before.locations?.totalProgression);
  return {
    ...locator,
    locations: { ...locator.locations, position: finite(before.locations?.position) ?? named - 1, ...(total !== undefined ? { totalProgression: total } : {}) },
  };
}

/** "Page x of y": the position shown, 1-based, within the book's positions. */
export function positionNumber(locator: R2Locator | null, total: number): number {
  const position = finite(locator?.locations?.position);
  return Math.min(Math.max(1, position ?? 1), Math.max(1, total));
}
