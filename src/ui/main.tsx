import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { subscribe } from 'valtio';
import { App } from './App.tsx';
import { returnFromOAuth2Popup } from './account/oauth2Popup.ts';
import { applyTheme } from './theme/applyTheme.ts';
import { preferences } from './store/preferences.ts';
import { LocaleRoot } from './shell/LocaleRoot.tsx';
import { applyLocale, readSavedLocale } from './store/localeChoice.ts';
import { openBookFromAddress } from './reader/readerLaunch.ts';
import './theme/theme.css.ts';

// A reader's address starts opening its book first of all: the first page must not wait for the
// language file, the session or the first render.
openBookFromAddress(window.location);

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
