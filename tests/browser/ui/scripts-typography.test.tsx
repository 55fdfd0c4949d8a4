import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import * as buttons from '../../../src/ui/components/buttons.css.ts';
import '../../../src/ui/theme/theme.css.ts';
import { flipInRtl } from '../../../src/ui/theme/direction.css.ts';
import { renderAt } from './render.tsx';

const html = document.documentElement;
let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => {
  view?.unmount();
  html.lang = 'en';
  html.dir = 'ltr';
});

describe('type per script', () => {
  it.each([
    ['ja', 'Hiragino Sans'],
    ['ko', 'Malgun Gothic'],
    ['zh-Hans', 'PingFang SC'],
    ['zh-Hant', 'PingFang TC'],
    ['th', 'Noto Sans Thai'],
    ['ta', 'Noto Sans Tamil'],
    ['he', 'Noto Sans Hebrew'],
  ])('%s: the body falls back to the script’s own fonts after the Latin ones', (lang, font) => {
    html.lang = lang;
    const family = getComputedStyle(document.body).fontFamily;
    expect(family).toContain(font);
    expect(family.indexOf('system-ui')).toBe(0);
  });

  it('keeps Chinese-style Han glyphs out of Japanese: the Japanese fonts come before any Chinese one', () => {
    html.lang = 'ja';
    const family = getComputedStyle(document.body).fontFamily;
    expect(family).not.toMatch(/PingFang|YaHei|JhengHei/);
  });

  it('breaks Korean between words and Japanese by the strict rules', () => {
    html.lang = 'ko';
    expect(getComputedStyle(document.body).wordBreak).toBe('keep-all');
    html.lang = 'ja';
    expect(getComputedStyle(document.body).lineBreak).toBe('strict');
  });

  it('a German compound longer than its box wraps inside the button instead of spilling out', async () => {
    html.lang = 'de';
    view = renderAt(
      '/',
      <div style={{ width: 140 }}>
        <button type="button" className={buttons.primary}>
          Bibliotheksverwaltungseinstellungen speichern
        </button>
      </div>,
    );
    const button = page.getByRole('button');
    await expect.element(button).toBeVisible();
    const element = button.element() as HTMLButtonElement;
    expect(element.getBoundingClientRect().width).toBeLessThanOrEqual(140);
    expect(element.scrollWidth).toBeLessThanOrEqual(element.clientWidth);
  });

  it('leaves an icon as drawn inside a left-to-right island of a right-to-left page', async () => {
    html.dir = 'rtl';
    view = renderAt(
      '/',
      <footer dir="ltr">
        <button type="button">
          <svg data-testid="in-button" className={flipInRtl} />
        </button>
      </footer>,
    );
    await expect.element(page.getByTestId('in-button')).toBeInTheDocument();
    const icon = page.getByTestId('in-button').element();
    expect(icon.matches(':dir(ltr)'), 'svg :dir(ltr)').toBe(true);
    expect(getComputedStyle(icon).transform).toBe('none');
  });

  it('mirrors a directional icon only where its own direction is right-to-left', async () => {
    view = renderAt(
      '/',
      <>
        <div dir="rtl">
          <svg data-testid="rtl" className={flipInRtl} />
          <div dir="ltr">
            <svg data-testid="island" className={flipInRtl} />
          </div>
        </div>
        <svg data-testid="ltr" className={flipInRtl} />
      </>,
    );
    await expect.element(page.getByTestId('rtl')).toBeInTheDocument();
    const transform = (id: string) => getComputedStyle(page.getByTestId(id).element()).transform;
    expect(transform('rtl')).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    expect(transform('island')).toBe('none');
    expect(transform('ltr')).toBe('none');
  });
});
