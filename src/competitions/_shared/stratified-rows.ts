/**
 * A stratified test set: of each class, the first round(fraction × its size) rows in `order`
 * (a seeded shuffle), so every class is held out in the same proportion.
 */
export function stratifiedRows<C>(order: readonly number[], classOf: (row: number) => C, classes: readonly C[], fraction: number): Set<number> {
  const rows = new Set<number>();
  for (const c of classes) {
    const members = order.filter((i) => classOf(i) === c);
    for (const i of members.slice(0, Math.round(members.length * fraction))) rows.add(i);
  }
  return rows;
}
