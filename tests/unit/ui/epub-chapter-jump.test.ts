import { describe, expect, it } from 'vitest';
import { chapterKey, chapterStart } from '../../../src/ui/reader/epub/chapterJump.ts';

describe('chapterKey', () => {
  it('takes Shift with the page arrows, mirrored right to left as the page keys are', () => {
    expect(chapterKey({ key: 'ArrowRight', shiftKey: true }, 'LEFT_TO_RIGHT')).toBe('next');
    expect(chapterKey({ key: 'ArrowLeft', shiftKey: true }, 'LEFT_TO_RIGHT')).toBe('previous');
    expect(chapterKey({ key: 'ArrowLeft', shiftKey: true }, 'RIGHT_TO_LEFT')).toBe('next');
    expect(chapterKey({ key: 'ArrowRight', shiftKey: true }, 'RIGHT_TO_LEFT')).toBe('previous');
  });

  it('leaves the plain arrows, other keys and the browser\'s modifiers alone', () => {
    expect(chapterKey({ key: 'ArrowRight' }, 'LEFT_TO_RIGHT')).toBeNull();
    expect(chapterKey({ key: ' ', shiftKey: true }, 'LEFT_TO_RIGHT')).toBeNull();
    expect(chapterKey({ key: 'ArrowRight', shiftKey: true, ctrlKey: true }, 'LEFT_TO_RIGHT')).toBeNull();
    expect(chapterKey({ key: 'ArrowRight', shiftKey: true, altKey: true }, 'LEFT_TO_RIGHT')).toBeNull();
  });
});

describe('chapterStart', () => {
  const base = 'http://host/api/v1/books/B/resource/';
  const positions = ['a', 'a', 'a', 'b', 'b', 'c'].map((chapter, i) => ({ href: `${chapter}.xhtml`, position: i + 1 }));

  it('goes to the first position of the next chapter, and of the previous one from anywhere in a chapter', () => {
    expect(chapterStart(positions, `${base}a.xhtml`, true)?.position).toBe(4);
    expect(chapterStart(positions, `${base}b.xhtml`, true)?.position).toBe(6);
    expect(chapterStart(positions, `${base}c.xhtml`, false)?.position).toBe(4);
    expect(chapterStart(positions, `${base}b.xhtml#note`, false)?.position).toBe(1);
  });

  it('has nothing past either end or for a chapter not in the list', () => {
    expect(chapterStart(positions, `${base}c.xhtml`, true)).toBeNull();
    expect(chapterStart(positions, `${base}a.xhtml`, false)).toBeNull();
    expect(chapterStart(positions, `${base}z.xhtml`, true)).toBeNull();
  });
});
