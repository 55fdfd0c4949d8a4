/**
 * `ids` in the order `order` gives them (a collection's series, a read list's books); ids not in
 * it go last. One position map, not an `indexOf` per comparison: that was O(n² log n), seconds of
 * the server's thread for a read list of a few thousand books (a .cbl import makes those).
 */
export function inListOrder(ids: readonly string[], order: readonly string[]): string[] {
  const position = new Map<string, number>();
  order.forEach((id, index) => {
    if (!position.has(id)) position.set(id, index);
  });
  const at = (id: string) => position.get(id) ?? -1;
  return ids.toSorted((a, b) => at(a) - at(b));
}
