import { useEffect, useState } from 'react';
import { getSeriesBooks, getSeriesList } from '../../api/series.ts';
import { ErrorMessage } from '../components/Feedback.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextField } from '../components/TextField.tsx';
import { useAsync } from '../hooks/useAsync.ts';
import { useDebounced } from '../hooks/useDebounced.ts';
import { t } from '../i18n.ts';
import { Modal } from './Modal.tsx';

export interface PickedBook {
  value: string;
  label: string;
}

/** A book's label in the read list import: its series, number and title, as the matched ones read. */
export function bookChoiceLabel(seriesTitle: string, number: string, title: string): string {
  return `${seriesTitle} · #${number} ${title}`;
}

/**
 * Any book of the server, found by its series: for a read list entry the server matched to nothing
 * (or to the wrong book). A series is searched by title, then one of its books chosen in order.
 */
export function BookPickerDialog(props: { open: boolean; title: string; onClose: () => void; onPick: (book: PickedBook) => void }) {
  const { open, onClose, onPick } = props;
  const [search, setSearch] = useState('');
  const [seriesId, setSeriesId] = useState('');
  const [bookId, setBookId] = useState('');
  const searched = useDebounced(search.trim(), 300);
  useEffect(() => {
    if (!open) return;
    setSearch('');
    setSeriesId('');
    setBookId('');
  }, [open]);
  // A deleted series (its folder gone) has no book to read: not offered, as on the book import screen.
  const series = useAsync(
    async () => (open ? getSeriesList({ search: searched || undefined, deleted: false }, { size: 100, sort: ['metadata.titleSort,asc'] }) : null),
    [open, searched],
  );
  const books = useAsync(
    async () => (seriesId ? getSeriesBooks(seriesId, { unpaged: true, sort: ['metadata.numberSort,asc'] }) : null),
    [seriesId],
  );
  const found = (series.data?.content ?? []).map((s) => ({ value: s.id, label: s.metadata.title || s.name }));
  const seriesTitle = found.find((s) => s.value === seriesId)?.label ?? '';
  const bookOptions = (books.data?.content ?? []).map((b) => ({ value: b.id, label: `#${b.metadata.number} ${b.metadata.title || b.name}` }));
  const book = books.data?.content.find((b) => b.id === bookId);

  return (
    <Modal
      open={open}
      title={props.title}
      onClose={onClose}
      submitLabel={t('import_readlist.pick_submit')}
      submitDisabled={!book}
      onSubmit={() => {
        if (book) onPick({ value: book.id, label: bookChoiceLabel(seriesTitle, book.metadata.number, book.metadata.title || book.name) });
      }}
    >
      <TextField type="search" label={t('import_books.series_search')} value={search} onChange={(e) => setSearch(e.target.value)} />
      <SelectField
        label={t('import_books.series')}
        value={seriesId}
        options={[{ value: '', label: t('import_books.choose_series') }, ...found]}
        onChange={(value) => {
          setSeriesId(value);
          setBookId('');
        }}
      />
      {seriesId && (
        <SelectField
          label={t('import_readlist.book')}
          value={bookId}
          options={[{ value: '', label: t('import_readlist.pick') }, ...bookOptions]}
          onChange={setBookId}
        />
      )}
      <ErrorMessage error={series.error ?? books.error} />
    </Modal>
  );
}
