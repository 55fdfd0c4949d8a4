import { useEffect, useState } from 'react';
import { darkThemeShown as isDark } from '../../theme/applyTheme.ts';

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
