import { createTheme, createThemeContract, globalStyle } from '@vanilla-extract/css';
import { TOUCH } from './media.ts';
import './scripts.css.ts';

/**
 * One contract, two themes. The root element carries exactly one of the theme classes;
 * "system" picks between them from prefers-color-scheme (see applyTheme.ts).
 * Brand colours come from SPEC §9.
 */
export const vars = createThemeContract({
  color: {
    primary: null,
    onPrimary: null,
    secondary: null,
    accent: null,
    background: null,
    surface: null,
    surfaceRaised: null,
    text: null,
    textMuted: null,
    border: null,
    error: null,
    errorSurface: null,
    focus: null,
    placeholder: null,
  },
});

export const lightTheme = createTheme(vars, {
  color: {
    primary: '#005ed3',
    onPrimary: '#ffffff',
    secondary: '#fec000',
    accent: '#ff0335',
    background: '#f4f5f7',
    surface: '#ffffff',
    surfaceRaised: '#ffffff',
    text: '#1b1d21',
    textMuted: '#595e66',
    border: '#d5d9df',
    // The accent red is too light for small text on white; errors use a darker shade of it.
    error: '#b8001f',
    errorSurface: '#ffe9ec',
    focus: '#005ed3',
    placeholder: '#dfe3e8',
  },
});

export const darkTheme = createTheme(vars, {
  color: {
    primary: '#78baec',
    onPrimary: '#08192a',
    secondary: '#fec000',
    accent: '#ff0335',
    background: '#121316',
    surface: '#1c1e22',
    surfaceRaised: '#25282d',
    text: '#e8eaed',
    textMuted: '#a7adb5',
    border: '#383c43',
    error: '#ff8597',
    errorSurface: '#3a1419',
    focus: '#78baec',
    placeholder: '#2c2f35',
  },
});

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });

globalStyle('html, body', {
  margin: 0,
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontSize: 16,
  lineHeight: 1.45,
});

globalStyle(`.${lightTheme}`, { colorScheme: 'light' });
globalStyle(`.${darkTheme}`, { colorScheme: 'dark' });

globalStyle('a', { color: vars.color.primary });

// Focus must always be visible for keyboard users, whatever the component.
globalStyle(':focus-visible', {
  outline: `3px solid ${vars.color.focus}`,
  outlineOffset: 2,
});

globalStyle('button, input, select, textarea', { font: 'inherit' });

// Every check box and radio, wherever it is (lists, dialogs, filters, the reader): the browser draws
// them 13 px, under WCAG 2.2's 24 px target, and a label beside one is not always a large target
// (a short word, a table cell). On a touch screen the box itself is 24 px; minimum sizes, so a
// component that draws its box larger keeps it, and one that sets a smaller size still gets 24.
// Desktop density is left as it was.
globalStyle('input[type="checkbox"], input[type="radio"]', {
  '@media': { [TOUCH]: { minInlineSize: 24, minBlockSize: 24 } },
});

globalStyle('h1, h2, h3', { lineHeight: 1.2 });
