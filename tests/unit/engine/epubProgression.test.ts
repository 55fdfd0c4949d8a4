import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { R2Locator } from '../../../src/api/types.ts';
import { heldPosition, positionNumber, progressionOf, resourcePath, restorePoint, samePlace, toR2Locator } from '../../../src/engine/epubProgression.ts';

/**
 * The progression the EPUB reader writes, checked against the contract's R2Progression schema
 * (the copy of Komga's openapi.json in the fixtures), with no property the contract lacks; and a
 * locator written by another client (Komga's) mapped back onto this book's positions.
 */
const openapi = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/komga-openapi.json'), 'utf8'));
const schemas = structuredClone(openapi.components.schemas) as Record<string, Record<string, unknown>>;
// Drift in either direction counts: nothing outside the contract's fields either.
for (const name of ['R2Progression', 'R2Locator', 'R2Device', 'Location']) schemas[name]!.additionalProperties = false;
const ajv = new Ajv({ strict: false, logger: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'komga', components: { schemas } });
const validProgression = ajv.compile({ $ref: 'komga#/components/schemas/R2Progression' });

const BOOK = 'http://folio.example/api/v1/books/B1/resource/OEBPS';
const position = (n: number, chapter: number, progression: number): R2Locator => ({
  href: `${BOOK}/text/ch${chapter}.xhtml`,
  type: 'application/xhtml+xml',
  locations: { fragments: [], position: n, progression, totalProgression: (n - 1) / 6 },
});
// Two chapters of three positions each.
const POSITIONS = [position(1, 1, 0), position(2, 1, 1 / 3), position(3, 1, 2 / 3), position(4, 2, 0), position(5, 2, 1 / 3), position(6, 2, 2 / 3)];

describe('the R2 progression the EPUB reader writes', () => {
  it('validates against the contract, from what the renderer reports (extra fields dropped)', () => {
    const fromRenderer = {
      href: `${BOOK}/text/ch2.xhtml`,
      type: 'application/xhtml+xml',
      title: 'Chapter 2',
      locations: { position: 5, progression: 0.4, totalProgression: 0.7, otherLocations: {}, cssSelector: 'p' },
      text: { highlight: 'x' },
    } as unknown as R2Locator;
    const written = progressionOf(fromRenderer, { id: 'abc', name: 'Folio web reader' }, new Date('2026-01-02T03:04:05.678Z'));
    expect(validProgression(written), JSON.stringify(validProgression.errors)).toBe(true);
    expect(written).toEqual({
      modified: '2026-01-02T03:04:05.678Z',
      device: { id: 'abc', name: 'Folio web reader' },
      locator: {
        href: `${BOOK}/text/ch2.xhtml`,
        type: 'application/xhtml+xml',
        title: 'Chapter 2',
        locations: { fragments: [], position: 5, progression: 0.4, totalProgression: 0.7 },
      },
    });
  });

  it('the schema check itself catches a broken progression', () => {
    expect(validProgression({ modified: 'yesterday', device: { id: 'a' }, locator: { href: 'x' } })).toBe(false);
  });

  it('keeps progressions within 0..1 and a type even when the renderer gives none', () => {
    const locator = toR2Locator({ href: 'a.xhtml', type: '', locations: { progression: 1.5, totalProgression: -1 } });
    expect(locator.locations).toEqual({ fragments: [], progression: 1, totalProgression: 0 });
    expect(locator.type).toBe('application/xhtml+xml');
  });
});

describe('reopening where another client left the book', () => {
  it("maps Komga's locator (another host, no position) to this book's position and href", () => {
    const fromKomga: R2Locator = {
      href: 'https://komga.example:8443/api/v1/books/B1/resource/OEBPS/text/ch2.xhtml',
      type: 'application/xhtml+xml',
      locations: { progression: 0.5 },
    };
    const restored = restorePoint(fromKomga, POSITIONS);
    expect(restored?.position.locations?.position).toBe(5);
    expect(restored?.target.href).toBe(`${BOOK}/text/ch2.xhtml`);
    expect(restored?.target.locations).toMatchObject({ position: 5, progression: 0.5 });
  });

  it('keeps a fragment, starts a chapter at its first position, refuses a document the book lacks', () => {
    expect(restorePoint({ href: `${BOOK}/text/ch1.xhtml#note`, type: 'application/xhtml+xml' }, POSITIONS)?.target.href).toBe(`${BOOK}/text/ch1.xhtml#note`);
    expect(restorePoint({ href: `${BOOK}/text/ch1.xhtml`, type: 'application/xhtml+xml' }, POSITIONS)?.position.locations?.position).toBe(1);
    expect(restorePoint({ href: `${BOOK}/text/ch9.xhtml`, type: 'application/xhtml+xml' }, POSITIONS)).toBeNull();
  });

  it('names resources by their path inside the EPUB, decoded', () => {
    expect(resourcePath('http://h/api/v1/books/B/resource/OEBPS/Text/ch%201.xhtml?x=1#p2')).toBe('OEBPS/Text/ch 1.xhtml');
    expect(resourcePath('http://h/api/v1/books/B/resource/bad%E0%A4%A.xhtml')).toBe('bad%E0%A4%A.xhtml');
  });

  it('tells the same place from a new one, and numbers the position shown', () => {
    expect(samePlace(POSITIONS[1]!, { ...POSITIONS[1]!, href: POSITIONS[1]!.href.replace('folio.example', 'other') })).toBe(true);
    expect(samePlace(POSITIONS[1]!, POSITIONS[2]!)).toBe(false);
    expect(positionNumber(POSITIONS[4]!, 6)).toBe(5);
    expect(positionNumber(null, 6)).toBe(1);
    expect(positionNumber({ href: 'x', type: 't', locations: { position: 99 } }, 6)).toBe(6);
  });
});

describe('the page named for the place shown', () => {
  // What the navigator reports: the first position starting at or after the screen's start.
  const shownAt = (position: number, chapter: number, progression: number): R2Locator => ({
    href: `${BOOK}/text/ch${chapter}.xhtml`,
    type: 'application/xhtml+xml',
    locations: { fragments: [], position, progression, totalProgression: (position - 1) / 6 },
  });

  it('is the position holding the screen\'s start, as the server stores it and a reopened book names it', () => {
    const held = heldPosition(shownAt(3, 1, 0.5), POSITIONS);
    expect(held.locations).toEqual({ fragments: [], position: 2, progression: 0.5, totalProgression: 1 / 6 });
    expect(restorePoint(held, POSITIONS)?.position.locations?.position).toBe(2);
  });

  it('stays as named when the screen starts where a position starts, at a chapter\'s start, or the list does not match', () => {
    expect(heldPosition(shownAt(2, 1, 1 / 3), POSITIONS).locations?.position).toBe(2);
    expect(heldPosition(shownAt(4, 2, 0), POSITIONS).locations?.position).toBe(4);
    expect(heldPosition(shownAt(1, 1, 0), POSITIONS).locations?.position).toBe(1);
    expect(heldPosition(shownAt(9, 2, 0.5), POSITIONS).locations?.position).toBe(9);
    expect(heldPosition({ href: `${BOOK}/text/ch2.xhtml`, type: 'application/xhtml+xml', locations: { progression: 0.5 } }, POSITIONS).locations?.position).toBeUndefined();
  });
});
