import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { CardGrid } from '../../../src/ui/components/CardGrid.tsx';
import { countByLetter, LetterBar } from '../../../src/ui/components/LetterBar.tsx';
import { PagingFooter } from '../../../src/ui/components/PagingFooter.tsx';
import { ThemeSwitch } from '../../../src/ui/shell/ThemeSwitch.tsx';
import { darkTheme, lightTheme } from '../../../src/ui/theme/theme.css.ts';
import { applyTheme } from '../../../src/ui/theme/applyTheme.ts';
import { preferences } from '../../../src/ui/store/preferences.ts';
import {
  parseSeriesBrowse,
  writeSeriesBrowse,
} from '../../../src/ui/screens/library/seriesBrowseQuery.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { renderAt } from './render.tsx';

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('PagingFooter', () => {
  it('shows "x–y of total" and disables next on the last page', async () => {
    const onPage = vi.fn();
    view = renderAt('/', <PagingFooter page={2} size={20} total={45} onPage={onPage} />);
    await expect.element(page.getByText('41–45 of 45')).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await userEvent.click(page.getByRole('button', { name: 'Previous page' }));
    expect(onPage).toHaveBeenCalledWith(1);
  });
});

describe('LetterBar', () => {
  it('folds non-letters into # and disables letters without series', async () => {
    const groups = [
      { group: 'a', count: 2 },
      { group: '1', count: 1 },
      { group: '(', count: 3 },
    ];
    expect(countByLetter(groups).get('#')).toBe(4);
    const onSelect = vi.fn();
    view = renderAt('/', <LetterBar groups={groups} selected={undefined} onSelect={onSelect} />);
    await expect.element(page.getByRole('button', { name: 'B', exact: true })).toBeDisabled();
    await expect.element(page.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(page.getByRole('button', { name: 'A', exact: true }));
    expect(onSelect).toHaveBeenCalledWith('A');
  });

  it("ru: each letter's count takes the plural form of its number", async () => {
    await applyLocale('ru');
    try {
      const groups = [
        { group: 'a', count: 1 },
        { group: 'b', count: 3 },
        { group: 'c', count: 5 },
      ];
      view = renderAt('/', <LetterBar groups={groups} selected={undefined} onSelect={() => undefined} />);
      await expect.element(page.getByRole('button', { name: 'A', exact: true })).toHaveAttribute('title', '1 серия');
      await expect.element(page.getByRole('button', { name: 'B', exact: true })).toHaveAttribute('title', '3 серии');
      await expect.element(page.getByRole('button', { name: 'C', exact: true })).toHaveAttribute('title', '5 серий');
    } finally {
      await applyLocale('en');
    }
  });
});

describe('series browse URL state', () => {
  it('round-trips sort, filters and letter through the query, resetting the page', () => {
    const state = parseSeriesBrowse(
      new URLSearchParams('sort=createdDate,desc&read_status=READ&status=ENDED&letter=K&page=3&genre=Drama&genre=SF&release_year=1999'),
    );
    expect(state).toMatchObject({ sortKey: 'createdDate', descending: true, readStatus: ['READ'], status: ['ENDED'], letter: 'K' });
    expect(state.values).toMatchObject({ genre: ['Drama', 'SF'], releaseYear: ['1999'], tag: [] });
    const written = writeSeriesBrowse(new URLSearchParams('page=3&pageSize=50'), { ...state, letter: undefined });
    expect(written.toString()).toBe(
      'pageSize=50&sort=createdDate%2Cdesc&read_status=READ&status=ENDED&genre=Drama&genre=SF&release_year=1999',
    );
  });

  it('ignores values it does not know', () => {
    const state = parseSeriesBrowse(new URLSearchParams('sort=evil,desc&read_status=NOPE&letter=ab'));
    expect(state).toMatchObject({ sortKey: 'metadata.titleSort', descending: true, readStatus: [], status: [], letter: undefined });
  });
});

describe('CardGrid', () => {
  const items = Array.from({ length: 1000 }, (_, i) => ({ id: `s${i}`, title: `Series ${i}` }));

  it('renders every card of a short list', async () => {
    view = renderAt('/', <CardGrid items={items.slice(0, 30)} itemKey={(i) => i.id} renderItem={(i) => <span>{i.title}</span>} label="Series" />);
    await expect.element(page.getByText('Series 29', { exact: true })).toBeInTheDocument();
    expect(view.container.querySelectorAll('li')).toHaveLength(30);
  });

  it('renders only the rows near the viewport of a long list', async () => {
    view = renderAt('/', <CardGrid items={items} itemKey={(i) => i.id} renderItem={(i) => <span>{i.title}</span>} label="Series" />);
    await expect.element(page.getByText('Series 0', { exact: true })).toBeInTheDocument();
    const rendered = view.container.querySelectorAll('[role="listitem"]').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(300);
    expect(page.getByText('Series 999', { exact: true }).query()).toBeNull();
  });
});

describe('ThemeSwitch', () => {
  it('switches the root theme class and remembers the choice', async () => {
    applyTheme(preferences.theme);
    const stop = (await import('valtio')).subscribe(preferences, () => applyTheme(preferences.theme));
    view = renderAt('/', <ThemeSwitch />);
    await userEvent.click(page.getByRole('radio', { name: 'Dark' }));
    await vi.waitFor(() => expect(document.documentElement.classList.contains(darkTheme)).toBe(true));
    expect(document.documentElement.classList.contains(lightTheme)).toBe(false);
    expect(JSON.parse(localStorage.getItem('folio.preferences') ?? '{}').theme).toBe('dark');
    await userEvent.click(page.getByRole('radio', { name: 'Light' }));
    await vi.waitFor(() => expect(document.documentElement.classList.contains(lightTheme)).toBe(true));
    stop();
  });
});

describe('series search body', () => {
  it('ORs values within a filter and ANDs the filters, with years as date spans', async () => {
    const { seriesSearchBody } = await import('../../../src/api/browse.ts');
    const body = seriesSearchBody({ libraryIds: ['L1'], genre: ['Drama', 'SF'], ageRating: ['12', 'None'], releaseYear: ['1999'] });
    expect(body.condition).toEqual({
      allOf: [
        { libraryId: { operator: 'is', value: 'L1' } },
        { anyOf: [{ genre: { operator: 'is', value: 'Drama' } }, { genre: { operator: 'is', value: 'SF' } }] },
        { anyOf: [{ ageRating: { operator: 'is', value: 12 } }, { ageRating: { operator: 'isNull' } }] },
        {
          allOf: [
            { releaseDate: { operator: 'after', dateTime: '1998-12-31T23:59:59Z' } },
            { releaseDate: { operator: 'before', dateTime: '2000-01-01T00:00:00Z' } },
          ],
        },
      ],
    });
  });
});

describe('manual ordering', () => {
  it('moves one id a place earlier or later and leaves the ends alone', async () => {
    const { moveId } = await import('../../../src/ui/components/MoveControls.tsx');
    expect(moveId(['a', 'b', 'c'], 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(moveId(['a', 'b', 'c'], 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(moveId(['a', 'b', 'c'], 'a', -1)).toEqual(['a', 'b', 'c']);
    expect(moveId(['a', 'b', 'c'], 'c', 1)).toEqual(['a', 'b', 'c']);
    expect(moveId(['a', 'b'], 'x', 1)).toEqual(['a', 'b']);
  });
});
