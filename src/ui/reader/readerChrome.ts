import type { ReaderAction } from '../../engine/readerInput.ts';
import { keyboardFocused } from './focusOrigin.ts';

/** The keys a focused slider (the page slider) moves its thumb with. */
const SLIDER_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * A key typed into a field belongs to the field, not to the reader. A slider is no text field: it
 * keeps its thumb's keys, and every other one (h, m, Escape…) is the reader's, or a reader who
 * dragged the page slider with the mouse would find the shortcuts dead until they clicked elsewhere.
 */
export function isTyping(target: EventTarget | null, key: string): boolean {
  if (target instanceof HTMLInputElement && target.type === 'range') return SLIDER_KEYS.has(key);
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/**
 * Space and Enter on a button reached by keyboard press that button, as everywhere else: in the
 * webtoon view Space also scrolls the strip, and the reader taking it would leave a button (a failed
 * page's retry) impossible to press from the keyboard with Space. A button that merely kept the
 * focus after a click (a toolbar button) does not take them: there Space goes on scrolling the strip
 * instead of pressing the button a second time. Needs followFocusOrigin running.
 */
export function pressesFocusedButton(event: Pick<KeyboardEvent, 'key' | 'target'>): boolean {
  if (event.key !== ' ' && event.key !== 'Enter') return false;
  const button = event.target instanceof HTMLElement ? event.target.closest('button') : null;
  return button !== null && keyboardFocused(button);
}

export type ChromePanel = 'settings' | 'help' | 'thumbnails';

export interface ReaderChrome {
  toolbar: boolean;
  setToolbar: (update: (visible: boolean) => boolean) => void;
  /** Opens the panel, or closes it when it is the one open ('thumbnails': the page list or contents). */
  togglePanel: (panel: ChromePanel) => void;
  toggleFullscreen: () => void;
  exit: () => void;
}

/**
 * What every reader (pages or EPUB) does alike: toolbars, settings, help and page-list panels,
 * full screen, and Escape (dialogs close themselves on it; then the toolbars; then the reader).
 * True when the action was one of these.
 */
export function applyChromeAction(action: ReaderAction, chrome: ReaderChrome): boolean {
  switch (action) {
    case 'toggle-toolbar':
      chrome.setToolbar((visible) => !visible);
      return true;
    case 'toggle-settings':
      chrome.togglePanel('settings');
      return true;
    case 'toggle-help':
      chrome.togglePanel('help');
      return true;
    case 'toggle-thumbnails':
      chrome.togglePanel('thumbnails');
      return true;
    case 'toggle-fullscreen':
      chrome.toggleFullscreen();
      return true;
    case 'escape':
      if (chrome.toolbar) chrome.setToolbar(() => false);
      else chrome.exit();
      return true;
    default:
      return false;
  }
}
