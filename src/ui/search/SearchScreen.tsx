import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'wouter';
import { browseBooks, browseSeries } from '../../api/browse.ts';
import { collectionThumbnailUrl, getCollections, getReadLists, readListThumbnailUrl } from '../../api/collections.ts';
import { ApiError } from '../../api/http.ts';
import type { Page } from '../../api/types.ts';
import { BookCard } from '../components/BookCard.tsx';
import { CardGrid } from '../components/CardGrid.tsx';
import { EmptyState, ErrorMessage, Loading } from '../components/Feedback.tsx';
import { GroupCard } from '../components/GroupCard.tsx';
import { SeriesCard } from '../components/SeriesCard.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import { usePagedRow } from '../hooks/usePagedRow.ts';
import { t, tPlural } from '../i18n.ts';
import * as screen from '../screens/screens.css.ts';

function ResultSection<T extends { id: string }>(props: {
  title: string;
  term: string;
  load: (page: number, size: number) => Promise<Page<T>>;
  render: (item: T) => ReactNode;
  onSettled: (kind: string, count: number) => void;
}) {
  const { title, term, onSettled } = props;
  const rows = usePagedRow(props.load, `${title}:${term}`);
  const missing = rows.error instanceof ApiError && rows.error.status === 404;
  useEffect(() => {
    if (!rows.loading) onSettled(title, missing ? 0 : rows.total);
  }, [rows.loading, rows.total, missing, title, onSettled]);
  if (missing) return null;
  if (rows.error) return <ErrorMessage error={rows.error} />;
  if (rows.items.length === 0) return null;
  return (
    <section>
      <h2 className={screen.sectionTitle}>
        {title} <span className={feedback.muted}>{t('common.parenthesized', { text: rows.total })}</span>
      </h2>
      <CardGrid items={rows.items} itemKey={(item) => item.id} renderItem={props.render} label={title} />
      {rows.items.length < rows.total && (
        <p>
          <button type="button" className={buttons.secondary} onClick={rows.loadMore} disabled={rows.loading}>
            {t('search.show_more')}
          </button>
        </p>
      )}
    </section>
  );
}

/** /search?q=…: series, books, collections and read lists matching the term, each growing on demand. */
export function SearchScreen() {
  const [params, setParams] = useSearchParams();
  const term = (params.get('q') ?? '').trim();
  const [draft, setDraft] = useState(term);
  const [counts, setCounts] = useState<Record<string, number>>({});
  useEffect(() => {
    setDraft(term);
    setCounts({});
  }, [term]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setParams(draft.trim() ? { q: draft.trim() } : {});
  }
  const onSettled = useState(() => (kind: string, count: number) => setCounts((c) => ({ ...c, [kind]: count })))[0];
  const settledKinds = Object.keys(counts).length;
  const nothingFound = settledKinds === 4 && Object.values(counts).every((c) => c === 0);

  return (
    <>
      <div className={screen.pageHeader}>
        <h1 className={screen.pageTitle}>{t('search.title')}</h1>
      </div>
      <form role="search" onSubmit={submit} className={screen.actionsRow}>
        <TextField label={t('search.label')} type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" className={buttons.primary} style={{ alignSelf: 'flex-end' }}>
          {t('search.submit')}
        </button>
      </form>
      {!term && <p className={feedback.muted}>{t('search.hint')}</p>}
      {term && (
        <>
          {settledKinds < 4 && <Loading />}
          {nothingFound && <EmptyState>{t('search.no_results')}</EmptyState>}
          <ResultSection
            title={t('search.kinds.series')}
            term={term}
            load={(page, size) => browseSeries({ search: term, oneshot: false }, { page, size })}
            render={(s) => <SeriesCard series={s} />}
            onSettled={onSettled}
          />
          <ResultSection
            title={t('search.kinds.books')}
            term={term}
            load={(page, size) => browseBooks({ search: term }, { page, size })}
            render={(b) => <BookCard book={b} showSeries />}
            onSettled={onSettled}
          />
          <ResultSection
            title={t('search.kinds.collections')}
            term={term}
            load={(page, size) => getCollections({ search: term }, { page, size })}
            render={(c) => (
              <GroupCard
                href={`/collections/${c.id}`}
                name={c.name}
                thumbnail={collectionThumbnailUrl(c.id)}
                description={tPlural('units.series', c.seriesIds.length)}
              />
            )}
            onSettled={onSettled}
          />
          <ResultSection
            title={t('search.kinds.readlists')}
            term={term}
            load={(page, size) => getReadLists({ search: term }, { page, size })}
            render={(r) => (
              <GroupCard
                href={`/readlists/${r.id}`}
                name={r.name}
                thumbnail={readListThumbnailUrl(r.id)}
                description={tPlural('units.books', r.bookIds.length)}
              />
            )}
            onSettled={onSettled}
          />
        </>
      )}
    </>
  );
}
