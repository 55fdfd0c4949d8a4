import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EPUB_SETTINGS,
  effectiveTheme,
  renderingPreferences,
  sanitizeEpubSettings,
  stepFontSize,
} from '../../../src/engine/epubSettings.ts';

describe('EPUB reader settings', () => {
  it('falls back to defaults value by value for whatever was stored', () => {
    expect(sanitizeEpubSettings('garbage')).toEqual(DEFAULT_EPUB_SETTINGS);
    expect(sanitizeEpubSettings({ layout: 'scrolled', theme: 'neon', fontSize: 1.5, lineHeight: 7 })).toEqual({
      ...DEFAULT_EPUB_SETTINGS,
      layout: 'scrolled',
      fontSize: 1.5,
    });
  });

  it('publisher styles keep the book typography; off, the choices apply', () => {
    const own = renderingPreferences({ ...DEFAULT_EPUB_SETTINGS, font: 'serif', lineHeight: 1.6, alignment: 'justify' }, 1.3, false);
    expect(own).toMatchObject({ fontFamily: null, lineHeight: null, textAlign: null, fontSize: 1.3, scroll: false });
    const mine = renderingPreferences({ ...DEFAULT_EPUB_SETTINGS, publisherStyles: false, font: 'serif', lineHeight: 1.6, alignment: 'justify' }, 1, false);
    expect(mine.fontFamily).toContain('serif');
    expect(mine).toMatchObject({ lineHeight: 1.6, textAlign: 'justify' });
  });

  it('the automatic theme follows the application; right-to-left books get one column', () => {
    expect(effectiveTheme('auto', true)).toBe('dark');
    expect(effectiveTheme('auto', false)).toBe('light');
    expect(effectiveTheme('sepia', true)).toBe('sepia');
    expect(renderingPreferences(DEFAULT_EPUB_SETTINGS, 1, true).backgroundColor).toBe('#121212');
    expect(renderingPreferences(DEFAULT_EPUB_SETTINGS, 1, false, true).columnCount).toBe(1);
    expect(renderingPreferences(DEFAULT_EPUB_SETTINGS, 1, false).columnCount).toBeNull();
  });

  it('columns as picked, one for a right-to-left book whatever the pick, and an unknown pick is automatic', () => {
    const columns = (columns: string, rightToLeft = false) =>
      renderingPreferences(sanitizeEpubSettings({ columns }), 1, false, rightToLeft).columnCount;
    expect(columns('one')).toBe(1);
    expect(columns('two')).toBe(2);
    expect(columns('auto')).toBeNull();
    expect(columns('three')).toBeNull();
    expect(columns('two', true)).toBe(1);
  });

  it('steps the font size along its scale and stops at the ends', () => {
    expect(stepFontSize(1, 1)).toBe(1.15);
    expect(stepFontSize(3, 1)).toBe(3);
    expect(stepFontSize(0.75, -1)).toBe(0.75);
    expect(stepFontSize(1.07, -1)).toBe(0.85);
  });
});
