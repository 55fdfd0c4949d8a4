/**
 * The lock flags of a book's or a series' metadata (Komga's `<field>Lock`), shared by the two edit
 * dialogs. A locked field is left as it is when the metadata is refreshed from the files.
 */

/** A dialog's lockable fields in its order, each with its label's locale key. */
export type LockableFields<F extends string> = readonly (readonly [field: F, labelKey: string])[];

/** Metadata carrying a `<field>Lock` flag for each of the fields `F`. */
export type LockFlags<F extends string> = { readonly [K in `${F}Lock`]: boolean };

/** The fields of `lockable`, in its order, that the record has locked. */
export function locksOf<F extends string>(metadata: LockFlags<F>, lockable: LockableFields<F>): F[] {
  const flags = metadata as Record<string, unknown>;
  return lockable.map(([field]) => field).filter((field) => flags[`${field}Lock`] === true);
}
