import { darkTheme, lightTheme } from './theme.css.ts';

export const THEMES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEMES)[number];

const darkQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
let followingSystem = false;

function paint(dark: boolean): void {
  const root = document.documentElement.classList;
  root.toggle(darkTheme, dark);
  root.toggle(lightTheme, !dark);
}

darkQuery?.addEventListener('change', (event) => {
  if (followingSystem) paint(event.matches);
});

/** Puts exactly one theme class on <html>; "system" keeps following the OS setting. */
export function applyTheme(choice: ThemeChoice): void {
  followingSystem = choice === 'system';
  paint(choice === 'dark' || (followingSystem && !!darkQuery?.matches));
}

/** Whether the dark theme is the one shown now (readers that draw their own colours follow it). */
export function darkThemeShown(): boolean {
  return document.documentElement.classList.contains(darkTheme);
}
