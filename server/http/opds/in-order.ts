/** `ids` in the order `order` lists them (an ordered collection's series, an ordered read list's books); ids it does not list go last. */
export function inOrder(ids: string[], order: string[]): string[] {
  const rank = new Map(order.map((id, index) => [id, index]));
  return [...ids].sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity));
}
