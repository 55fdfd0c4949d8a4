import { Check, Trash2, Upload } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { ApiError } from '../../api/http.ts';
import { deletePoster, listPosters, posterImageUrl, selectPoster, uploadPoster, type PosterOwner } from '../../api/posters.ts';
import { ErrorMessage, Loading } from '../components/Feedback.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import * as form from '../components/form.css.ts';
import { formatBytes } from '../format.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { t } from '../i18n.ts';
import * as styles from './posters.css.ts';
import { Modal } from './Modal.tsx';

function typeLabel(type: string): string {
  const key = `posters.types.${type}`;
  const label = t(key);
  return label === key ? type : label;
}

/**
 * The posters of a book, series, collection or read list: choose which one shows, delete an
 * uploaded one, upload a new one (SPEC §4 thumbnails). An oversized file gets the "too big" warning.
 */
export function PostersDialog(props: { owner: PosterOwner; id: string; open: boolean; onClose: () => void; onChanged: () => void }) {
  const { owner, id, open, onClose, onChanged } = props;
  const posters = useAsync(() => (open ? listPosters(owner, id) : Promise.resolve([])), [owner, id, open]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [tooBig, setTooBig] = useState(false);
  const [selectUploaded, setSelectUploaded] = useState(true);
  const fileRef = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const selectId = useId();
  // Posters can change while their URL stays the same; a per-change token defeats the cache.
  const [version, setVersion] = useState(0);

  async function act(run: () => Promise<unknown>) {
    setBusy(true);
    setError(undefined);
    setTooBig(false);
    try {
      await run();
      posters.reload();
      setVersion((v) => v + 1);
      onChanged();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 413) setTooBig(true);
      else setError(failure);
    } finally {
      setBusy(false);
    }
  }

  function upload() {
    const file = fileRef.current?.files?.[0];
    if (!file) return;
    void act(async () => {
      await uploadPoster(owner, id, file, selectUploaded);
      if (fileRef.current) fileRef.current.value = '';
    });
  }

  const list = posters.data ?? [];
  return (
    <Modal open={open} wide title={t('posters.title')} onClose={onClose} onSubmit={upload} submitLabel={t('posters.upload')} submitDisabled={busy}>
      {posters.loading && !posters.data && <Loading />}
      <ErrorMessage error={posters.error} />
      {posters.data && list.length === 0 && <p className={feedback.muted}>{t('posters.none')}</p>}
      <ul className={styles.grid}>
        {list.map((poster) => (
          <li key={poster.id} className={styles.item} aria-current={poster.selected ? 'true' : undefined}>
            <img
              className={styles.image}
              src={`${posterImageUrl(owner, id, poster.id)}?v=${version}`}
              alt={t('posters.alt', { type: typeLabel(poster.type), width: poster.width, height: poster.height })}
            />
            <span className={styles.caption}>
              {t('posters.caption', { type: typeLabel(poster.type), width: poster.width, height: poster.height, size: formatBytes(poster.fileSize) })}
            </span>
            {poster.selected ? (
              <span className={styles.selected}>
                <Check aria-hidden="true" size={14} /> {t('posters.current')}
              </span>
            ) : (
              <button type="button" className={buttons.quiet} disabled={busy} onClick={() => void act(() => selectPoster(owner, id, poster.id))}>
                {t('posters.use')}
              </button>
            )}
            {poster.type === 'USER_UPLOADED' && (
              <button
                type="button"
                className={buttons.icon}
                disabled={busy}
                aria-label={t('posters.delete', { type: typeLabel(poster.type) })}
                onClick={() => void act(() => deletePoster(owner, id, poster.id))}
              >
                <Trash2 aria-hidden="true" size={16} />
              </button>
            )}
          </li>
        ))}
      </ul>
      <div className={form.field}>
        <label htmlFor={fileId} className={form.label}>
          <Upload aria-hidden="true" size={14} /> {t('posters.file')}
        </label>
        <input id={fileId} ref={fileRef} type="file" accept="image/*" className={form.input} />
      </div>
      <div className={form.checkboxRow}>
        <input id={selectId} type="checkbox" checked={selectUploaded} onChange={(e) => setSelectUploaded(e.target.checked)} />
        <label htmlFor={selectId}>{t('posters.select_uploaded')}</label>
      </div>
      {tooBig && (
        <p role="alert" className={feedback.errorBox}>
          {t('posters.too_big')}
        </p>
      )}
      <ErrorMessage error={error} />
    </Modal>
  );
}
