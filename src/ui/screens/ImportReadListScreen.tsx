import { FileUp } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { createReadList, getReadLists } from '../../api/collections.ts';
import { ApiError } from '../../api/http.ts';
import { matchComicRackList, READ_LIST_FILE_MAX_MB, type ReadListImportResult } from '../../api/readListImport.ts';
import { ErrorMessage, LiveStatus } from '../components/Feedback.tsx';
import { LabelledCell } from '../components/LabelledCell.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import * as form from '../components/form.css.ts';
import * as table from '../components/table.css.ts';
import { t, tPlural } from '../i18n.ts';
import { formatMegabytes, formatNumber } from '../format.ts';
import { explainMediaComment } from '../mediaComment.ts';
import { BookPickerDialog, bookChoiceLabel, type PickedBook } from '../dialogs/BookPickerDialog.tsx';
import { ImportTabs } from './ImportTabs.tsx';
import * as styles from './screens.css.ts';

/** Every candidate book of a request, labelled "Series · #number title". */
function candidates(request: ReadListImportResult['requests'][number]) {
  return request.matches.flatMap((match) =>
    match.books.map((book) => ({ value: book.bookId, label: bookChoiceLabel(match.series.title, book.number, book.title) })),
  );
}

/** /import/readlist: match a ComicRack list, choose the books, create the read list. */
export function ImportReadListScreen() {
  const fileRef = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const [result, setResult] = useState<ReadListImportResult | null>(null);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [tooBig, setTooBig] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);
  // Books the user found themselves, per entry: for one the server matched to nothing (or wrongly).
  const [picked, setPicked] = useState<Record<number, PickedBook>>({});
  const [picking, setPicking] = useState<number | null>(null);
  const optionsFor = (index: number, request: ReadListImportResult['requests'][number]) => {
    const own = picked[index];
    const matched = candidates(request);
    return own && !matched.some((o) => o.value === own.value) ? [...matched, own] : matched;
  };

  async function analyse(event: FormEvent) {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) return;
    setError(undefined);
    setCreated(null);
    // Refused here rather than by the server's 413 after the whole upload.
    const tooBigFile = file.size > READ_LIST_FILE_MAX_MB * 1024 * 1024;
    setTooBig(tooBigFile);
    if (tooBigFile) return;
    setBusy(true);
    try {
      const matched = await matchComicRackList(file);
      setResult(matched);
      setPicked({});
      setName(matched.readListMatch.name);
      // A request with exactly one candidate is chosen for the user.
      setChosen(matched.requests.map((request) => {
        const options = candidates(request);
        return options.length === 1 ? (options[0]?.value ?? '') : '';
      }));
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 413) setTooBig(true);
      else setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function create() {
    const trimmed = name.trim();
    if (!trimmed) return setProblem(t('groups.add_dialog.name_required'));
    const bookIds = chosen.filter(Boolean);
    if (bookIds.length === 0) return setProblem(t('import_readlist.no_books'));
    setBusy(true);
    setError(undefined);
    try {
      const existing = await getReadLists({ search: trimmed }, { unpaged: true });
      if (existing.content.some((r) => r.name.localeCompare(trimmed, undefined, { sensitivity: 'accent' }) === 0)) {
        setProblem(t('groups.add_dialog.readlist_exists'));
        return;
      }
      setProblem(undefined);
      const readList = await createReadList(trimmed, bookIds);
      setCreated({ id: readList.id, name: readList.name });
      setResult(null);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const matchedCount = chosen.filter(Boolean).length;
  return (
    <>
      <div className={styles.pageHeader}>
        <h1 className={styles.pageTitle}>{t('import_readlist.title')}</h1>
      </div>
      <ImportTabs current="readlist" />
      <form onSubmit={analyse} className={styles.narrowForm}>
        <div className={form.field}>
          <label htmlFor={fileId} className={form.label}>
            {t('import_readlist.file')}
          </label>
          <input id={fileId} ref={fileRef} type="file" accept=".cbl,application/xml,text/xml" className={form.input} required />
        </div>
        <div>
          <button type="submit" className={buttons.primary} disabled={busy}>
            <FileUp aria-hidden="true" size={16} />
            {t('import_readlist.analyse')}
          </button>
        </div>
      </form>
      {tooBig && (
        <p role="alert" className={feedback.errorBox}>
          {t('import_readlist.too_big', { size: formatMegabytes(READ_LIST_FILE_MAX_MB) })}
        </p>
      )}
      <ErrorMessage error={error} />
      <LiveStatus
        as="p"
        message={
          created && (
            <>
              {t('import_readlist.created')} <Link href={`/readlists/${created.id}`}>{created.name}</Link>
            </>
          )
        }
      />
      {result && (
        <section>
          {result.errorCode && (
            <p role="alert" className={feedback.errorBox}>
              {explainMediaComment(result.errorCode)}
            </p>
          )}
          {/* A list that yields no entry (unreadable, or without books) has nothing to match or create. */}
          {result.requests.length > 0 && (
            <>
            <h2 className={styles.sectionTitle}>{tPlural('import_readlist.matches', result.requests.length, { matched: matchedCount })}</h2>
            <div className={styles.narrowForm}>
              <TextField label={t('libraries.add_dialog.name')} value={name} onChange={(e) => setName(e.target.value)} />
              {result.readListMatch.errorCode && <p className={feedback.muted}>{explainMediaComment(result.readListMatch.errorCode)}</p>}
            </div>
            <div className={table.wrapper}>
              {/* Cards on a phone: the book picker, as wide as its longest title, was past the screen's edge. */}
              <table className={`${table.table} ${table.stacked}`}>
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">{t('import_readlist.requested')}</th>
                    <th scope="col">{t('import_readlist.book')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.requests.map((request, index) => {
                    const options = optionsFor(index, request);
                    return (
                      <tr key={index}>
                        <LabelledCell label="#">{formatNumber(index + 1)}</LabelledCell>
                        <LabelledCell label={t('import_readlist.requested')}>
                          {request.request.series.join(' / ')} #{request.request.number}
                        </LabelledCell>
                        <td>
                          {options.length === 0 ? (
                            <span className={feedback.muted}>
                              {request.errorCode ? explainMediaComment(request.errorCode) : t('import_readlist.no_match')}
                            </span>
                          ) : (
                            <SelectField
                              label={t('import_readlist.book_for', { n: index + 1 })}
                              value={chosen[index] ?? ''}
                              options={[{ value: '', label: t('import_readlist.skip') }, ...options]}
                              onChange={(value) => setChosen(chosen.map((c, i) => (i === index ? value : c)))}
                            />
                          )}
                          <button
                            type="button"
                            className={buttons.quiet}
                            aria-label={t('import_readlist.pick_for', { n: index + 1 })}
                            onClick={() => setPicking(index)}
                          >
                            {t('import_readlist.pick')}
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <BookPickerDialog
              open={picking !== null}
              title={picking === null ? t('import_readlist.pick') : t('import_readlist.pick_for', { n: picking + 1 })}
              onClose={() => setPicking(null)}
              onPick={(book) => {
                if (picking === null) return;
                setPicked({ ...picked, [picking]: book });
                setChosen(chosen.map((c, i) => (i === picking ? book.value : c)));
                setPicking(null);
              }}
            />
            {problem && (
              <p role="alert" className={feedback.errorBox}>
                {problem}
              </p>
            )}
            <p>
              <button type="button" className={buttons.primary} disabled={busy} onClick={() => void create()}>
                {t('import_readlist.create')}
              </button>
            </p>
            </>
          )}
        </section>
      )}
    </>
  );
}
