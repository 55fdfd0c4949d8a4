import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import type { AuthenticationActivityDto, UserDto } from '../../api/types.ts';
import { getAuthenticationActivity, getLatestActivities, getUsers } from '../../api/users.ts';
import { ErrorMessage, Loading } from '../components/Feedback.tsx';
import * as buttons from '../components/buttons.css.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { t } from '../i18n.ts';
import * as screens from '../screens/screens.css.ts';
import { session } from '../store/session.ts';
import { ActivityTable } from './ActivityTable.tsx';
import { AddUserDialog } from './AddUserDialog.tsx';
import { ChangeUserPasswordDialog } from './ChangeUserPasswordDialog.tsx';
import { DeleteUserDialog } from './DeleteUserDialog.tsx';
import { EditRestrictionsDialog } from './EditRestrictionsDialog.tsx';
import { EditRolesDialog } from './EditRolesDialog.tsx';
import { formatDateTime, formatList } from '../format.ts';
import { shownRoles } from './RoleCheckboxes.tsx';
import * as styles from './settings.css.ts';
import { LabelledCell } from '../components/LabelledCell.tsx';
import { activityErrorText } from './activityErrorText.ts';

type Dialog = 'roles' | 'restrictions' | 'password' | 'delete';

interface UserRow {
  user: UserDto;
  latest: AuthenticationActivityDto | null;
}

async function loadRows(): Promise<UserRow[]> {
  const users = await getUsers();
  const latest = await getLatestActivities(users.map((u) => u.id));
  return users.map((user, i) => ({ user, latest: latest[i] ?? null }));
}

function restrictionSummary(user: UserDto, libraryName: (id: string) => string): string {
  const parts: string[] = [];
  if (!user.sharedAllLibraries) {
    parts.push(t('users_admin.summary.libraries', { names: formatList(user.sharedLibrariesIds.map(libraryName)) || '—' }));
  }
  if (user.ageRestriction) {
    parts.push(t(`users_admin.summary.age_${user.ageRestriction.restriction}`, { age: user.ageRestriction.age }));
  }
  if (user.labelsAllow.length) parts.push(t('users_admin.summary.labels_allow', { labels: formatList(user.labelsAllow) }));
  if (user.labelsExclude.length) parts.push(t('users_admin.summary.labels_exclude', { labels: formatList(user.labelsExclude) }));
  return parts.length ? parts.join('; ') : t('users_admin.summary.none');
}

/**
 * /settings/users (admin): every user with roles, restrictions and latest login, and the actions
 * of SPEC §2 dialogs. `/settings/users/add` is the same screen with the add dialog open.
 */
export function UsersScreen({ adding }: { adding: boolean }) {
  const [, navigate] = useLocation();
  const { me, libraries } = useSnapshot(session);
  const rows = useAsync(() => loadRows(), []);
  const [dialog, setDialog] = useState<{ kind: Dialog; user: UserDto } | null>(null);
  const libraryName = (id: string) => libraries.find((l) => l.id === id)?.name ?? id;

  const close = () => setDialog(null);
  const done = () => {
    setDialog(null);
    rows.reload();
  };
  const userFor = (kind: Dialog) => (dialog?.kind === kind ? dialog.user : null);
  const addButton = useRef<HTMLButtonElement>(null);
  const deleted = useRef(false);
  const userDeleted = () => {
    deleted.current = true;
    done();
  };

  // The dialog hands focus back to the row's Delete button, which the reloaded list then drops:
  // after a deletion the keyboard goes on from Add user instead of the page's start.
  useEffect(() => {
    if (dialog || !deleted.current) return;
    deleted.current = false;
    addButton.current?.focus();
  }, [dialog]);

  return (
    <section>
      <header className={screens.pageHeader}>
        <h1 className={screens.pageTitle}>{t('screens.users')}</h1>
        <button ref={addButton} type="button" className={buttons.primary} onClick={() => navigate('/settings/users/add')}>
          {t('users_admin.add.open')}
        </button>
      </header>
      <ErrorMessage error={rows.error} />
      {!rows.data && !rows.error && <Loading />}
      {rows.data && (
        <div className={styles.tableScroll}>
          <table className={styles.table} aria-label={t('screens.users')}>
            <thead>
              <tr>
                <th className={styles.headerCell}>{t('users_admin.email')}</th>
                <th className={styles.headerCell}>{t('users_admin.roles')}</th>
                <th className={styles.headerCell}>{t('users_admin.restrictions')}</th>
                <th className={styles.headerCell}>{t('users_admin.latest_activity')}</th>
                <th className={styles.headerCell}>{t('users_admin.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.data.map(({ user, latest }) => {
                const self = user.id === me?.id;
                return (
                  <tr key={user.id}>
                    <LabelledCell className={styles.cell} label={t('users_admin.email')}>{user.email}</LabelledCell>
                    <LabelledCell className={styles.cell} label={t('users_admin.roles')}>
                      {formatList(shownRoles(user.roles).map((r) => t(`users_admin.role.${r}`))) || t('users_admin.role.USER')}
                    </LabelledCell>
                    <LabelledCell className={styles.cell} label={t('users_admin.restrictions')}>{restrictionSummary(user, libraryName)}</LabelledCell>
                    <LabelledCell className={styles.cell} label={t('users_admin.latest_activity')}>
                      {latest
                        ? `${formatDateTime(latest.dateTime)} · ${latest.success ? t('users_admin.activity.success') : t('users_admin.activity.failure', { error: activityErrorText(latest.error) })}`
                        : t('users_admin.never')}
                    </LabelledCell>
                    <td className={styles.cell}>
                      <div className={styles.rowActions}>
                        {/* The server forbids editing or deleting oneself through these calls. */}
                        <button type="button" className={buttons.secondary} disabled={self} onClick={() => setDialog({ kind: 'roles', user })}>
                          {t('users_admin.edit_roles')}
                        </button>
                        <button type="button" className={buttons.secondary} disabled={self} onClick={() => setDialog({ kind: 'restrictions', user })}>
                          {t('users_admin.edit_restrictions')}
                        </button>
                        <button type="button" className={buttons.secondary} onClick={() => setDialog({ kind: 'password', user })}>
                          {t('users_admin.change_password')}
                        </button>
                        <button type="button" className={buttons.secondary} disabled={self} onClick={() => setDialog({ kind: 'delete', user })}>
                          {t('users_admin.delete')}
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <h2 className={screens.sectionTitle}>{t('users_admin.activity.title_all')}</h2>
      <ActivityTable showEmail caption={t('users_admin.activity.title_all')} load={(query, signal) => getAuthenticationActivity(query, signal)} />

      <AddUserDialog
        open={adding}
        onClose={() => navigate('/settings/users', { replace: true })}
        onAdded={() => {
          navigate('/settings/users', { replace: true });
          rows.reload();
        }}
      />
      <EditRolesDialog user={userFor('roles')} onClose={close} onSaved={done} />
      <EditRestrictionsDialog user={userFor('restrictions')} onClose={close} onSaved={done} />
      <ChangeUserPasswordDialog user={userFor('password')} onClose={close} onSaved={done} />
      <DeleteUserDialog user={userFor('delete')} onClose={close} onDeleted={userDeleted} />
    </section>
  );
}
