import { Search } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { useAsync } from '../hooks/useAsync.ts';
import { useDebounced } from '../hooks/useDebounced.ts';
import { describeError, t } from '../i18n.ts';
import { searchAll, toSuggestions, type Suggestion } from './searchAll.ts';
import * as styles from './search.css.ts';
import { useFittingPlaceholder } from './useFittingPlaceholder.ts';

const KIND_LABELS: Record<Suggestion['kind'], string> = {
  series: 'search.kinds.series',
  books: 'search.kinds.books',
  collections: 'search.kinds.collections',
  readLists: 'search.kinds.readlists',
};

/**
 * App-bar search: an ARIA combobox whose listbox suggests series, books, collections and read
 * lists as you type (debounced 500 ms). Enter on a suggestion opens it; Enter otherwise opens
 * the full results page.
 */
export function SearchBox() {
  const [, navigate] = useLocation();
  const listboxId = useId();
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const boxRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // The full hint where it fits, the short one on a narrow field (a phone), none rather than a cut one.
  const placeholder = useFittingPlaceholder(inputRef, [t('search.placeholder'), t('search.placeholder_short')]);
  const query = useDebounced(term.trim(), 500);

  const results = useAsync(() => (query ? searchAll(query, 0, 10) : Promise.resolve(null)), [query]);
  const suggestions = useMemo(() => (results.data ? toSuggestions(results.data) : []), [results.data]);

  useEffect(() => setActive(-1), [suggestions]);

  // Clicking elsewhere closes the list.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!boxRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  function go(href: string) {
    setOpen(false);
    setTerm('');
    navigate(href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (suggestions.length ? (i + 1) % suggestions.length : -1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (suggestions.length ? (i <= 0 ? suggestions.length - 1 : i - 1) : -1));
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
      } else {
        setTerm('');
      }
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = open ? suggestions[active] : undefined;
      if (chosen) go(chosen.href);
      else if (term.trim()) go(`/search?${new URLSearchParams({ q: term.trim() }).toString()}`);
    }
  }

  const showPopup = open && term.trim().length > 0;
  const activeId = active >= 0 && suggestions[active] ? `${listboxId}-${suggestions[active].id}` : undefined;
  let lastKind: Suggestion['kind'] | undefined;

  return (
    <div ref={boxRef} className={styles.box}>
      <div className={styles.field}>
        <Search aria-hidden="true" size={16} className={styles.icon} />
        <input
          type="search"
          role="combobox"
          className={styles.input}
          aria-label={t('search.label')}
          ref={inputRef}
          placeholder={placeholder}
          aria-expanded={showPopup}
          aria-controls={listboxId}
          aria-autocomplete="list"
          aria-activedescendant={showPopup ? activeId : undefined}
          value={term}
          onChange={(e) => {
            setTerm(e.target.value);
            setActive(-1);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          // Tab on to another control closes the list (on a phone it spans the screen and would stay
          // over the page being tabbed through). A press on an option moves no focus: not this.
          onBlur={(event) => {
            if (event.relatedTarget && !boxRef.current?.contains(event.relatedTarget)) setOpen(false);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      {showPopup && (
        <ul id={listboxId} role="listbox" aria-label={t('search.suggestions')} className={styles.popup}>
          {(results.loading || query !== term.trim()) && suggestions.length === 0 && (
            <li role="presentation" className={styles.note}>
              {t('app.loading')}
            </li>
          )}
          {results.error !== undefined && (
            <li role="presentation" className={styles.note}>
              {describeError(results.error)}
            </li>
          )}
          {!results.loading && query === term.trim() && results.data && suggestions.length === 0 && (
            <li role="presentation" className={styles.note}>
              {t('search.no_results')}
            </li>
          )}
          {suggestions.map((suggestion, index) => {
            const heading = suggestion.kind !== lastKind ? t(KIND_LABELS[suggestion.kind]) : undefined;
            lastKind = suggestion.kind;
            return [
              heading && (
                <li key={`h-${suggestion.kind}`} role="presentation" className={styles.groupLabel}>
                  {heading}
                </li>
              ),
              <li
                key={suggestion.id}
                id={`${listboxId}-${suggestion.id}`}
                role="option"
                aria-selected={index === active}
                className={styles.option}
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => go(suggestion.href)}
                onPointerEnter={() => setActive(index)}
              >
                <span>{suggestion.label}</span>
                {suggestion.detail && <span className={styles.optionDetail}>{suggestion.detail}</span>}
              </li>,
            ];
          })}
        </ul>
      )}
    </div>
  );
}
