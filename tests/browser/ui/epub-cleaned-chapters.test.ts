import { describe, expect, it } from 'vitest';
import { CleanedChapters } from '../../../src/ui/reader/epub/cleanedChapters.ts';

/** The cleaned chapters an open book keeps for frames built again (cleanedChapters.ts). */
const chapter = (text: string) => new DOMParser().parseFromString(`<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body><p>${text}</p></body></html>`, 'application/xhtml+xml');

describe('cleaned chapters of an open book', () => {
  it('hands out a copy, so what the navigator adds to one is not in the next', () => {
    const kept = new CleanedChapters(1000);
    kept.keep('a', chapter('A'), 100);
    const first = kept.take('a')!;
    first.doc.head.appendChild(first.doc.createElementNS('http://www.w3.org/1999/xhtml', 'style'));
    const second = kept.take('a')!;
    expect(second.doc.getElementsByTagName('style')).toHaveLength(0);
    expect(second.doc.body.textContent).toBe('A');
    expect(second.bytes).toBe(100);
    expect(kept.take('b')).toBeUndefined();
  });

  it('keeps up to its limit of source bytes, the least recently used going first, and no chapter larger than the limit', () => {
    const kept = new CleanedChapters(250);
    kept.keep('a', chapter('A'), 100);
    kept.keep('b', chapter('B'), 100);
    kept.take('a');
    kept.keep('c', chapter('C'), 100);
    expect(kept.take('b')).toBeUndefined();
    expect(kept.take('a')?.doc.body.textContent).toBe('A');
    expect(kept.take('c')?.doc.body.textContent).toBe('C');
    kept.keep('huge', chapter('H'), 251);
    expect(kept.take('huge')).toBeUndefined();
    expect(kept.size).toBe(2);
    // Kept again under the same address, now larger: its old size no longer counts, and the other one goes.
    kept.keep('a', chapter('A2'), 160);
    expect(kept.take('c')).toBeUndefined();
    expect(kept.take('a')?.doc.body.textContent).toBe('A2');
  });
});
