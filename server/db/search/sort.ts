export interface SortOrder {
  property: string;
  direction: 'asc' | 'desc';
}

/**
 * Whether `property` names one of the whitelist's own entries: `toString`, `constructor` or
 * `__proto__` are found on every object, and their functions used to reach the SQL (500).
 */
export const isSortProperty = (columns: Record<string, string>, property: string) => Object.hasOwn(columns, property);

/**
 * Turns requested sort orders into an ORDER BY clause using a whitelist of property → SQL
 * expression; unknown properties are ignored (as Komga does), and so are repeats of a property. A final id tie-breaker keeps paging
 * stable.
 */
export function orderBy(
  orders: SortOrder[],
  columns: Record<string, string>,
  fallback: SortOrder[],
  idColumn: string,
): { clause: string; sorted: boolean } {
  // Only the first order on a property counts: a later one cannot change the order. Thousands of
  // repeated `sort=` parameters otherwise reached SQLite ("too many terms in ORDER BY clause": 500).
  const seen = new Set<string>();
  const known = orders.filter((o) => isSortProperty(columns, o.property) && !seen.has(o.property) && seen.add(o.property));
  const effective = known.length > 0 ? known : fallback;
  const parts = effective.map((o) => `${columns[o.property]} ${o.direction === 'desc' ? 'DESC' : 'ASC'}`);
  parts.push(`${idColumn} ASC`);
  return { clause: `ORDER BY ${parts.join(', ')}`, sorted: known.length > 0 };
}
