import { Ban, Power, RefreshCw, Trash } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { scanAllLibraries } from '../../api/libraries.ts';
import { emptyLibraryTrash } from '../../api/libraryAdmin.ts';
import {
  cancelAllTasks,
  getServerInfo,
  getServerSettings,
  regenerateBookPosters,
  shutDownServer,
  updateServerSettings,
  type ServerSettings,
  type ThumbnailSize,
} from '../../api/server.ts';
import { ErrorMessage, LiveStatus, Loading } from '../components/Feedback.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { TextField } from '../components/TextField.tsx';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import * as form from '../components/form.css.ts';
import { ConfirmActionDialog } from '../dialogs/ConfirmActionDialog.tsx';
import { ConfirmDeleteDialog } from '../dialogs/ConfirmDeleteDialog.tsx';
import { live } from '../events/liveStore.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { formatNumber } from '../format.ts';
import { t, tPlural } from '../i18n.ts';
import { session } from '../store/session.ts';
import { integerAtLeastProblem } from '../validation/metadataRules.ts';
import * as styles from './screens.css.ts';

const THUMBNAIL_SIZES: ThumbnailSize[] = ['DEFAULT', 'MEDIUM', 'LARGE', 'XLARGE'];
/** Each size's long side in pixels (Komga's), written by common.pixels in the admin's digits and word. */
const THUMBNAIL_PIXELS: Record<ThumbnailSize, number> = { DEFAULT: 300, MEDIUM: 600, LARGE: 900, XLARGE: 1200 };

// The server's bounds (server/http/routes/settings-routes.ts): past them it refuses the whole save
// with its own English sentence, so they are said on the field first, in the admin's language.
const MAX_TASK_THREADS = 64;
const MAX_REMEMBER_ME_DAYS = 365_000;

/** A whole number from 1 to `max`; an emptied field is refused too (it was sent as 0). */
function countProblem(value: string, max: number): string | undefined {
  if (value.trim() === '') return t('validation.required');
  const key = integerAtLeastProblem(value, 1);
  if (key) return t(key);
  return Number(value) > max ? t('validation.at_most', { max: formatNumber(max) }) : undefined;
}

type SizeChange = { from: ThumbnailSize; to: ThumbnailSize };

function SettingsForm({ settings, onSaved }: { settings: ServerSettings; onSaved: (resized: SizeChange | undefined) => void }) {
  const [draft, setDraft] = useState({ ...settings, rememberMeDurationDays: String(settings.rememberMeDurationDays), taskPoolSize: String(settings.taskPoolSize) });
  const [renewKey, setRenewKey] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState(false);
  const problems = {
    rememberMeDurationDays: countProblem(draft.rememberMeDurationDays, MAX_REMEMBER_ME_DAYS),
    taskPoolSize: countProblem(draft.taskPoolSize, MAX_TASK_THREADS),
  };
  const show = (message: string | undefined) => (submitted ? message : undefined);

  async function save(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setSaved(false);
    if (problems.rememberMeDurationDays || problems.taskPoolSize) return;
    setBusy(true);
    setError(undefined);
    try {
      await updateServerSettings({
        deleteEmptyCollections: draft.deleteEmptyCollections,
        deleteEmptyReadLists: draft.deleteEmptyReadLists,
        thumbnailSize: draft.thumbnailSize,
        rememberMeDurationDays: Number(draft.rememberMeDurationDays),
        taskPoolSize: Number(draft.taskPoolSize),
        ...(renewKey ? { renewRememberMeKey: true } : {}),
      });
      setSaved(true);
      setRenewKey(false);
      onSaved(draft.thumbnailSize !== settings.thumbnailSize ? { from: settings.thumbnailSize, to: draft.thumbnailSize } : undefined);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={styles.narrowForm} onSubmit={save} noValidate>
      <SelectField
        label={t('server.settings.thumbnail_size')}
        value={draft.thumbnailSize}
        options={THUMBNAIL_SIZES.map((value) => ({ value, label: t(`server.thumbnail_sizes.${value}`, { size: t('common.pixels', { n: THUMBNAIL_PIXELS[value] }) }) }))}
        onChange={(value) => setDraft({ ...draft, thumbnailSize: value as ThumbnailSize })}
      />
      {(['deleteEmptyCollections', 'deleteEmptyReadLists'] as const).map((key) => (
        <div key={key} className={form.checkboxRow}>
          <input id={`server-${key}`} type="checkbox" checked={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.checked })} />
          <label htmlFor={`server-${key}`}>{t(`server.settings.${key}`)}</label>
        </div>
      ))}
      <TextField
        label={t('server.settings.remember_me_days')}
        inputMode="numeric"
        value={draft.rememberMeDurationDays}
        onChange={(e) => setDraft({ ...draft, rememberMeDurationDays: e.target.value })}
        error={show(problems.rememberMeDurationDays)}
      />
      <div className={form.checkboxRow}>
        <input id="server-renew-key" type="checkbox" checked={renewKey} onChange={(e) => setRenewKey(e.target.checked)} />
        <label htmlFor="server-renew-key">{t('server.settings.renew_key')}</label>
      </div>
      <TextField
        label={t('server.settings.task_pool_size')}
        inputMode="numeric"
        value={draft.taskPoolSize}
        onChange={(e) => setDraft({ ...draft, taskPoolSize: e.target.value })}
        error={show(problems.taskPoolSize)}
      />
      <ErrorMessage error={error} />
      <LiveStatus as="p" message={saved ? t('server.settings.saved') : undefined} />
      <div>
        <button type="submit" className={buttons.primary} disabled={busy}>
          {t('libraries.edit_dialog.submit')}
        </button>
      </div>
    </form>
  );
}

/** /settings/server: tasks, maintenance over all libraries, settings, version, shutdown. */
export function ServerScreen() {
  const { pendingTasks, connected } = useSnapshot(live);
  const { libraries } = useSnapshot(session);
  const settings = useAsync(() => getServerSettings(), []);
  const info = useAsync(() => getServerInfo(), []);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [confirmStop, setConfirmStop] = useState(false);
  const [confirmTrash, setConfirmTrash] = useState(false);
  const [stopped, setStopped] = useState(false);
  // The size the posters were drawn at and the new one, once a save changed it: the setting only
  // applies to posters drawn from now on, so the admin is offered to redraw the existing ones.
  const [resized, setResized] = useState<SizeChange | undefined>(undefined);

  async function run(action: () => Promise<string>) {
    setNotice(undefined);
    setError(undefined);
    try {
      setNotice(await action());
    } catch (failure) {
      setError(failure);
    }
  }

  const version = (info.data?.build as { version?: string } | undefined)?.version;

  return (
    <>
      <div className={styles.pageHeader}>
        <h1 className={styles.pageTitle}>{t('server.title')}</h1>
      </div>
      <LiveStatus as="p" className={feedback.errorBox} message={stopped ? t('server.stopped') : undefined} />
      <ErrorMessage error={error} onDismiss={() => setError(undefined)} />
      <LiveStatus as="p" message={notice} />

      <h2 className={styles.sectionTitle}>{t('server.tasks')}</h2>
      <p>{connected ? tPlural('app.pending_tasks', pendingTasks) : t('server.tasks_unknown')}</p>
      <div className={styles.actionsRow}>
        <button
          type="button"
          className={buttons.secondary}
          onClick={() => void run(async () => tPlural('server.cancelled_tasks', Number(await cancelAllTasks()) || 0))}
        >
          <Ban aria-hidden="true" size={16} />
          {t('server.cancel_tasks')}
        </button>
        <button
          type="button"
          className={buttons.secondary}
          disabled={libraries.length === 0}
          onClick={() =>
            void run(async () => {
              await scanAllLibraries(session.libraries.map((library) => library.id));
              return t('server.scan_all_started');
            })
          }
        >
          <RefreshCw aria-hidden="true" size={16} />
          {t('server.scan_all')}
        </button>
        <button
          type="button"
          className={buttons.secondary}
          disabled={libraries.length === 0}
          onClick={() => setConfirmTrash(true)}
        >
          <Trash aria-hidden="true" size={16} />
          {t('server.empty_trash_all')}
        </button>
      </div>

      {settings.loading && !settings.data && <Loading />}
      <ErrorMessage error={settings.error} />
      {settings.data && (
        <>
          <h2 className={styles.sectionTitle}>{t('server.settings.title')}</h2>
          <SettingsForm
            settings={settings.data}
            onSaved={(change) => {
              setResized(change);
              settings.reload();
            }}
          />
        </>
      )}

      <h2 className={styles.sectionTitle}>{t('server.about')}</h2>
      <ErrorMessage error={info.error} />
      {version && <p>{t('server.version', { version })}</p>}
      <div className={styles.actionsRow}>
        <button type="button" className={buttons.danger} onClick={() => setConfirmStop(true)} disabled={stopped}>
          <Power aria-hidden="true" size={16} />
          {t('server.shut_down')}
        </button>
      </div>
      {/* As one library's trash (LibraryLayout): what is removed cannot come back, so it asks first. */}
      <ConfirmDeleteDialog
        open={confirmTrash}
        title={t('server.empty_trash_all')}
        explanation={t('server.empty_trash_all_explanation')}
        confirmLabel={t('server.empty_trash_all')}
        onClose={() => setConfirmTrash(false)}
        onConfirm={async () => {
          for (const library of session.libraries) await emptyLibraryTrash(library.id);
          setConfirmTrash(false);
          setError(undefined);
          setNotice(t('libraries.actions.trash_started'));
        }}
      />
      <ConfirmActionDialog
        open={resized !== undefined}
        title={t('server.redraw_posters.title')}
        explanation={t('server.redraw_posters.explanation')}
        confirmLabel={t('server.redraw_posters.title')}
        onClose={() => setResized(undefined)}
        onConfirm={async () => {
          const change = resized!;
          // Bigger: posters already drawn at least that big (small source pages) stay as they are.
          await regenerateBookPosters(THUMBNAIL_SIZES.indexOf(change.to) > THUMBNAIL_SIZES.indexOf(change.from));
          setResized(undefined);
          setNotice(t('server.redraw_posters.started'));
        }}
      />
      {/* Not a deletion: a stopped server is started again, so no "irreversible" warning. */}
      <ConfirmActionDialog
        danger
        open={confirmStop}
        title={t('server.shut_down')}
        explanation={t('server.shut_down_explanation')}
        confirmLabel={t('server.shut_down')}
        onClose={() => setConfirmStop(false)}
        onConfirm={async () => {
          await shutDownServer();
          setConfirmStop(false);
          setStopped(true);
        }}
      />
    </>
  );
}
