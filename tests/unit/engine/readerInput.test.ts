import { describe, expect, it } from 'vitest';
import { clickZoneAction, dragTurn, keyAction, swipeAction } from '../../../src/engine/readerInput.ts';

describe('keyAction', () => {
  it('arrows follow the reading direction', () => {
    expect(keyAction({ key: 'ArrowRight' }, 'LEFT_TO_RIGHT')).toBe('next');
    expect(keyAction({ key: 'ArrowLeft' }, 'LEFT_TO_RIGHT')).toBe('previous');
    expect(keyAction({ key: 'ArrowRight' }, 'RIGHT_TO_LEFT')).toBe('previous');
    expect(keyAction({ key: 'ArrowLeft' }, 'RIGHT_TO_LEFT')).toBe('next');
    expect(keyAction({ key: 'ArrowLeft' }, 'VERTICAL')).toBeNull();
    expect(keyAction({ key: 'ArrowDown' }, 'VERTICAL')).toBe('next');
    expect(keyAction({ key: 'ArrowUp' }, 'VERTICAL')).toBe('previous');
    expect(keyAction({ key: 'ArrowDown' }, 'LEFT_TO_RIGHT')).toBeNull();
  });

  it('webtoon keys scroll', () => {
    expect(keyAction({ key: ' ' }, 'WEBTOON')).toBe('scroll-down');
    expect(keyAction({ key: 'PageDown' }, 'WEBTOON')).toBe('scroll-down');
    expect(keyAction({ key: 'PageUp' }, 'WEBTOON')).toBe('scroll-up');
    // ↓/↑ a line's worth, not a screen (REFERENCE §5.5).
    expect(keyAction({ key: 'ArrowDown' }, 'WEBTOON')).toBe('nudge-down');
    expect(keyAction({ key: 'ArrowUp' }, 'WEBTOON')).toBe('nudge-up');
    expect(keyAction({ key: ' ' }, 'LEFT_TO_RIGHT')).toBeNull();
  });

  it('settings and menu shortcuts', () => {
    expect(keyAction({ key: 'c' }, 'LEFT_TO_RIGHT')).toBe('cycle-scale');
    expect(keyAction({ key: 'd' }, 'LEFT_TO_RIGHT')).toBe('cycle-layout');
    expect(keyAction({ key: 'd' }, 'WEBTOON')).toBeNull();
    expect(keyAction({ key: 'p' }, 'WEBTOON')).toBe('cycle-padding');
    expect(keyAction({ key: 'n' }, 'WEBTOON')).toBe('cycle-margin');
    expect(keyAction({ key: 'r' }, 'LEFT_TO_RIGHT')).toBe('direction-rtl');
    expect(keyAction({ key: 'w' }, 'LEFT_TO_RIGHT')).toBe('direction-webtoon');
    expect(keyAction({ key: 'h' }, 'WEBTOON')).toBe('toggle-help');
    expect(keyAction({ key: 't' }, 'WEBTOON')).toBe('toggle-thumbnails');
    expect(keyAction({ key: 'Escape' }, 'VERTICAL')).toBe('escape');
    expect(keyAction({ key: 'Home' }, 'RIGHT_TO_LEFT')).toBe('first');
    expect(keyAction({ key: 'End' }, 'RIGHT_TO_LEFT')).toBe('last');
  });

  it('ignores keys held with a modifier', () => {
    expect(keyAction({ key: 'ArrowRight', ctrlKey: true }, 'LEFT_TO_RIGHT')).toBeNull();
    expect(keyAction({ key: 'c', metaKey: true }, 'LEFT_TO_RIGHT')).toBeNull();
    expect(keyAction({ key: 'f', shiftKey: true }, 'LEFT_TO_RIGHT')).toBeNull();
  });
});

describe('clickZoneAction', () => {
  it('left and right quarters turn pages, mirrored right to left', () => {
    expect(clickZoneAction(0.1, 0.5, 'LEFT_TO_RIGHT')).toBe('previous');
    expect(clickZoneAction(0.9, 0.5, 'LEFT_TO_RIGHT')).toBe('next');
    expect(clickZoneAction(0.1, 0.5, 'RIGHT_TO_LEFT')).toBe('next');
    expect(clickZoneAction(0.9, 0.5, 'RIGHT_TO_LEFT')).toBe('previous');
    expect(clickZoneAction(0.5, 0.5, 'RIGHT_TO_LEFT')).toBe('toggle-toolbar');
  });

  it('vertical modes use top and bottom quarters', () => {
    expect(clickZoneAction(0.1, 0.1, 'VERTICAL')).toBe('previous');
    expect(clickZoneAction(0.9, 0.9, 'VERTICAL')).toBe('next');
    expect(clickZoneAction(0.1, 0.5, 'VERTICAL')).toBe('toggle-toolbar');
    expect(clickZoneAction(0.5, 0.1, 'WEBTOON')).toBe('scroll-up');
    expect(clickZoneAction(0.5, 0.9, 'WEBTOON')).toBe('scroll-down');
  });
});

describe('swipeAction', () => {
  it('swiping left turns right; vertical mode swipes up and down', () => {
    expect(swipeAction(-1, 0, 'LEFT_TO_RIGHT')).toBe('next');
    expect(swipeAction(1, 0, 'LEFT_TO_RIGHT')).toBe('previous');
    expect(swipeAction(-1, 0, 'RIGHT_TO_LEFT')).toBe('previous');
    expect(swipeAction(0, -1, 'VERTICAL')).toBe('next');
    expect(swipeAction(0, 1, 'VERTICAL')).toBe('previous');
    expect(swipeAction(0, -1, 'LEFT_TO_RIGHT')).toBeNull();
    expect(swipeAction(-1, 0, 'WEBTOON')).toBeNull();
  });
});

describe('dragTurn', () => {
  const page = { width: 400, height: 800 };
  it('a slow drag a quarter of the page or more along the turn axis turns like a swipe', () => {
    expect(dragTurn(-100, 10, page, 'LEFT_TO_RIGHT')).toEqual([-1, 0]);
    expect(dragTurn(150, -20, page, 'RIGHT_TO_LEFT')).toEqual([1, 0]);
    expect(dragTurn(5, -200, page, 'VERTICAL')).toEqual([0, -1]);
  });
  it('a short or mostly sideways drag does not turn', () => {
    expect(dragTurn(-99, 0, page, 'LEFT_TO_RIGHT')).toEqual([0, 0]);
    expect(dragTurn(-150, 100, page, 'LEFT_TO_RIGHT')).toEqual([0, 0]);
    expect(dragTurn(-300, 0, page, 'VERTICAL')).toEqual([0, 0]);
    expect(dragTurn(0, 199, page, 'VERTICAL')).toEqual([0, 0]);
  });
});
