import { ROLES, type Role } from '../../api/types.ts';
import { CheckboxGroup } from '../components/CheckboxGroup.tsx';
import { t } from '../i18n.ts';

export type GrantedRole = (typeof ROLES)[number];

/**
 * Komga's Kobo and KOReader sync roles open sync endpoints Folio does not have (server/README.md:
 * Kobo settings are stored but change nothing). Offered, they told an admin moving from Komga that
 * a KOReader or Kobo could sync here; they are kept in the API (Komga's clients send them) and on
 * a user who has them, but neither offered nor listed.
 */
const UNSUPPORTED_ROLES: readonly GrantedRole[] = ['KOBO_SYNC', 'KOREADER_SYNC'];
const OFFERED_ROLES = ROLES.filter((role) => !UNSUPPORTED_ROLES.includes(role));

/** The grantable roles (USER is implicit and never shown); a role not offered stays as it is. */
export function RoleCheckboxes(props: { selected: GrantedRole[]; onChange: (roles: GrantedRole[]) => void }) {
  return (
    <CheckboxGroup
      legend={t('users_admin.roles')}
      options={OFFERED_ROLES.map((role) => ({ value: role, label: t(`users_admin.role.${role}`) }))}
      selected={props.selected}
      onChange={props.onChange}
    />
  );
}

export const grantedRoles = (roles: readonly Role[]): GrantedRole[] =>
  roles.filter((r): r is GrantedRole => r !== 'USER');

/** The roles a user has that Folio acts on, for the users list. */
export const shownRoles = (roles: readonly Role[]): GrantedRole[] => grantedRoles(roles).filter((role) => !UNSUPPORTED_ROLES.includes(role));
