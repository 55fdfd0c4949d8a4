import { describe, expect, it } from 'vitest';
import { documentsToKeep } from '../../../src/engine/epubFrameWindow.ts';

describe('documentsToKeep', () => {
  it('keeps the documents of the positions two either side, clipped to the book', () => {
    const hrefs = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    expect([...documentsToKeep(hrefs, 4)]).toEqual(['c', 'd', 'e', 'f', 'g']);
    expect([...documentsToKeep(hrefs, 0)]).toEqual(['a', 'b', 'c']);
    expect([...documentsToKeep(hrefs, 7)]).toEqual(['f', 'g', 'h']);
  });

  it('counts positions, not documents: a long chapter keeps fewer neighbours', () => {
    expect([...documentsToKeep(['a', 'b', 'b', 'b', 'b', 'c'], 3)]).toEqual(['b', 'c']);
  });
});
