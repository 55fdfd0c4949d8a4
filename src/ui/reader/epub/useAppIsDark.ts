import { useEffect, useState } from 'react';

/*
 * The application's theme puts `color-scheme: dark` or `light` on <html>. Reading that computed
 * value (rather than importing the theme modules) keeps this lazily loaded reader from pulling the
 * theme code out of the initial bundle into a shared chunk.
 */
const isDark = () => getComputedStyle(document.documentElement).colorScheme.includes('dark');

/** Whether the application shows its dark theme now (the EPUB reader's "auto" theme follows it). */
export function useAppIsDark(): boolean {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(isDark()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return dark;
}
