/** pandas' header clean-up: "Unnamed: i" for empty names, then ".1", ".2" suffixes for duplicates. */
export function pandasColumnNames(raw: string[]): string[] {
  const names = raw.map((n, i) => (n === "" ? `Unnamed: ${i}` : n));
  // How often each name occurs in the list as it is being rewritten (pandas checks `col in this_header`).
  const present = new Map<string, number>();
  for (const n of names) present.set(n, (present.get(n) ?? 0) + 1);
  if (present.size === names.length) return names;
  // Named columns first, so that given names keep their spelling and unnamed ones get mangled.
  const order: number[] = [];
  for (let i = 0; i < raw.length; i++) if (raw[i] !== "") order.push(i);
  for (let i = 0; i < raw.length; i++) if (raw[i] === "") order.push(i);
  const counts = new Map<string, number>();
  for (const i of order) {
    const old = names[i];
    let col = old;
    let cur = counts.get(col) ?? 0;
    while (cur > 0) {
      counts.set(old, cur + 1);
      col = `${old}.${cur}`;
      if ((present.get(col) ?? 0) > 0) cur += 1;
      else cur = counts.get(col) ?? 0;
    }
    if (col !== old) {
      present.set(old, present.get(old)! - 1);
      present.set(col, (present.get(col) ?? 0) + 1);
      names[i] = col;
    }
    counts.set(col, cur + 1);
  }
  return names;
}
