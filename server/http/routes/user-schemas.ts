import { GRANTED_ROLES, type GrantedRole } from '../../db/stored-values.ts';
import type { User } from '../../db/user-repository.ts';
import { Batch, KotlinPrimitive, Nullable, type Static, StringEnum, Type, withMessage } from '../schemas.ts';

/**
 * Request bodies of the users API (UserCreationDto, UserUpdateDto, PasswordUpdateDto). Validation
 * is the schema's: failures come back as Komga's `{fieldName, message}` violations.
 */

const Email = withMessage(Type.String({ pattern: '^\\s*[^@\\s]+@[^@\\s]+\\.[^@\\s]+\\s*$' }), 'must be a well-formed email address');
const Password = withMessage(Type.String({ pattern: '\\S' }), 'must not be blank');

/** SharedLibrariesUpdateDto: `all` is a Kotlin Boolean (absent or null: false), libraryIds a required set. */
const SharedLibraries = Type.Object({ all: KotlinPrimitive('boolean'), libraryIds: Batch(Type.String()) });

const Restrictions = {
  // USER is implicit: accepted, never stored.
  roles: Type.Optional(Type.Array(withMessage(StringEnum([...GRANTED_ROLES, 'USER']), `must be one of ${[...GRANTED_ROLES, 'USER'].join(', ')}`))),
  sharedLibraries: Type.Optional(SharedLibraries),
  labelsAllow: Type.Optional(Nullable(Type.Array(Type.String()))),
  labelsExclude: Type.Optional(Nullable(Type.Array(Type.String()))),
  ageRestriction: Type.Optional(
    Nullable(
      Type.Object({
        // AgeRestrictionUpdateDto.age is a Kotlin Int: absent or null reads as 0.
        age: withMessage(KotlinPrimitive('integer', { minimum: 0 }), 'must be greater than or equal to 0'),
        restriction: StringEnum(['ALLOW_ONLY', 'EXCLUDE', 'NONE']),
      }),
    ),
  ),
};

/**
 * UserCreationDto's sharedLibraries is nullable (null shares every library, as absent does); in
 * UserUpdateDto a null reaches `sharedLibraries!!` (a 500 in Komga), so there it stays a 400.
 */
export const UserCreation = Type.Object({
  email: Email,
  password: Password,
  ...Restrictions,
  sharedLibraries: Type.Optional(Nullable(SharedLibraries)),
});
export const UserUpdate = Type.Object(Restrictions);
/**
 * `currentPassword` is Folio's: required to change one's own password unless the request uses Basic.
 * Komga's clients never send it; a null is "not given", as absent.
 */
export const PasswordUpdate = Type.Object({ password: Password, currentPassword: Type.Optional(Nullable(Type.String())) });
export type PasswordChange = Static<typeof PasswordUpdate>;
type RestrictionUpdate = Static<typeof UserUpdate>;

type UserRestrictions = Pick<User, 'roles' | 'sharedAllLibraries' | 'sharedLibraryIds' | 'labelsAllow' | 'labelsExclude' | 'ageRestriction' | 'ageRestrictionType'>;

/** Lower-cased, trimmed, de-duplicated labels (series sharing labels are compared the same way). */
const cleanLabels = (labels: string[]) => [...new Set(labels.map((l) => l.trim().toLowerCase()).filter(Boolean))];

/**
 * Applies the restriction fields present in `body` onto `target`; absent fields leave it as it is.
 * Shared library ids that name no library are dropped, as Komga keeps only the libraries it finds.
 */
export function applyRestrictions(
  body: RestrictionUpdate | Static<typeof UserCreation>,
  target: UserRestrictions,
  libraryExists: (id: string) => boolean,
): void {
  if (body.roles) target.roles = [...new Set(body.roles.filter((r): r is GrantedRole => r !== 'USER'))];
  if (body.sharedLibraries) {
    // The schema's default fills an absent `all`; `?? false` only satisfies the type.
    const all = body.sharedLibraries.all ?? false;
    target.sharedAllLibraries = all;
    target.sharedLibraryIds = all ? [] : [...new Set(body.sharedLibraries.libraryIds)].filter(libraryExists);
  }
  for (const key of ['labelsAllow', 'labelsExclude'] as const) {
    const labels = body[key];
    if (labels !== undefined) target[key] = labels === null ? [] : cleanLabels(labels);
  }
  const age = body.ageRestriction;
  if (age === null || age?.restriction === 'NONE') {
    target.ageRestriction = null;
    target.ageRestrictionType = null;
  } else if (age) {
    target.ageRestriction = age.age ?? 0;
    target.ageRestrictionType = age.restriction;
  }
}

/** Whether an update changed anything that decides what the user may do or see. */
export function restrictionsChanged(before: UserRestrictions, after: UserRestrictions): boolean {
  const key = (u: UserRestrictions) =>
    JSON.stringify([
      [...u.roles].sort(),
      u.sharedAllLibraries,
      [...u.sharedLibraryIds].sort(),
      [...u.labelsAllow].sort(),
      [...u.labelsExclude].sort(),
      u.ageRestriction,
      u.ageRestrictionType,
    ]);
  return key(before) !== key(after);
}
