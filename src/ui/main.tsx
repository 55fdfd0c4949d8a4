// First of all the main bundle's imports, so first to run: the boot module. The page loads it on its
// own too and runs it when it arrives; whichever comes first starts opening a reader's book (once),
// before React and the rest of the app are even evaluated. In a build the boot module is also what
// runs this bundle: on a cold load of a reader's address, only once the book's first frame is up.
import './boot.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { subscribe } from 'valtio';
import { App } from './App.tsx';
import { returnFromOAuth2Popup } from './account/oauth2Popup.ts';
import { applyTheme } from './theme/applyTheme.ts';
import { preferences } from './store/preferences.ts';
import { LocaleRoot } from './shell/LocaleRoot.tsx';
import { appStarting } from './reader/openingPaint.ts';
import { applyLocale, readSavedLocale } from './store/localeChoice.ts';
import './theme/theme.css.ts';

performance.mark('folio:main'); // for the benchmark's waterfall: when the main bundle ran
// From here on the reader's own view paints the first page (see openingPaint.ts).
appStarting();

// An OAuth2 login popup coming back from the server hands over to its opener and closes.
returnFromOAuth2Popup();
applyTheme(preferences.theme);
subscribe(preferences, () => applyTheme(preferences.theme));

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks the #root element');
const root = createRoot(container);
// The saved language and its direction are in place before the first render, so an Arabic user never
// sees an English left-to-right page flash by; the locale file is a small local chunk.
void applyLocale(readSavedLocale()).then(() =>
  root.render(
    <StrictMode>
      <LocaleRoot>{() => <App />}</LocaleRoot>
    </StrictMode>,
  ),
);
