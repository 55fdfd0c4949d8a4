/** The author roles Komga and Folio know (SPEC: writer … translator), in the order the editors list them. */
export const AUTHOR_ROLES = ['writer', 'penciller', 'inker', 'colorist', 'letterer', 'cover', 'editor', 'translator'] as const;

/**
 * The `author` values of the older GET lists (`author=<name>,<role>`, repeatable, OR-ed; the name is
 * everything before the last comma) that find each of `names` in any role.
 *
 * A real Komga compares the role exactly, so `name,` alone (an empty role) finds nothing there: the
 * name is asked for once per known role. `name,` is sent as well because Folio reads an empty role as
 * any role, which also finds a name credited under a role outside the list (a Komga client may store
 * any role); on Komga it matches nothing and so changes nothing.
 */
export function authorInAnyRole(names: readonly string[] | undefined): string[] | undefined {
  if (!names || names.length === 0) return undefined;
  return names.flatMap((name) => [`${name},`, ...AUTHOR_ROLES.map((role) => `${name},${role}`)]);
}
