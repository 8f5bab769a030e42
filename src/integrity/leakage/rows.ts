/** Row checks: answer ids in public train files, and feature rows shared by train and test files. */
import type { Table } from "../../core/table.js";
import { cellKey, MISSING, type Target } from "./columns.js";
import type { LeakageFinding, ResolvedOptions } from "./types.js";

/** Answer ids found in a train file; a leak when the file also carries their targets. */
export function idOverlap(
  file: string,
  table: Table,
  idColumn: string,
  answerIndex: Map<string, number>,
  targets: Target[],
  opts: ResolvedOptions,
): LeakageFinding | null {
  const idCol = table.data.get(idColumn);
  if (!idCol) return null;
  const shared = targets.filter((t) => table.data.has(t.name));
  const seen = new Set<string>();
  let rows = 0;
  let agree = 0;
  const examples: string[] = [];
  for (let i = 0; i < table.rowCount; i++) {
    const id = cellKey(idCol, i);
    const a = answerIndex.get(id);
    if (a === undefined) continue;
    rows++;
    seen.add(id);
    const same = shared.length > 0 && shared.every((t) => cellKey(table.data.get(t.name)!, i) === t.keys[a]);
    if (same) agree++;
    if (examples.length < opts.maxExamples) {
      const labels = shared.map((t) => `${t.name}=${cellKey(table.data.get(t.name)!, i)} (answer ${t.keys[a]})`);
      examples.push([`${idColumn} ${id} at row ${i + 1}`, ...labels].join(", "));
    }
  }
  if (rows === 0) return null;
  // Agreement only discloses answers when it beats guessing the commonest answer: ids that merely
  // collide (both files numbered from 0) agree by chance on a heavily imbalanced target.
  const chance = shared.length > 0 ? commonestShare(shared[0].keys) : 1;
  const share = shared.length > 0 ? agree / rows : 0;
  const disclosed = share >= opts.minShare && (share - chance) / (1 - chance) >= 0.5;
  const agreement = shared.length > 0 ? `; its ${shared.map((t) => t.name).join(", ")} equals the answers on ${agree} of them` : "";
  return {
    kind: "id-overlap",
    severity: disclosed ? "leak" : "warning",
    message: `${seen.size} of ${answerIndex.size} answer ids (${rows} rows) appear in ${file}${agreement}`,
    file,
    column: idColumn,
    share: seen.size / answerIndex.size,
    count: seen.size,
    examples,
  };
}

/** Share of the commonest value among keys. */
function commonestShare(keys: string[]): number {
  const counts = new Map<string, number>();
  let best = 0;
  for (const k of keys) {
    const c = (counts.get(k) ?? 0) + 1;
    counts.set(k, c);
    if (c > best) best = c;
  }
  return keys.length === 0 ? 1 : best / keys.length;
}

/** A 64-bit-ish hash of a string as text (two 32-bit FNV-1a lanes); collisions are negligible at benchmark sizes. */
function hashText(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(36) + ":" + (b >>> 0).toString(36);
}

/** The hash of row i over `columns`, or null when every one of them is missing there. */
function rowHash(table: Table, columns: string[], i: number): string | null {
  let text = "";
  let present = false;
  for (const c of columns) {
    const k = cellKey(table.data.get(c)!, i);
    if (k !== MISSING) present = true;
    text += k + "\u001f";
  }
  return present ? hashText(text) : null;
}

/** Hashes of one test file's feature rows, kept for one train file: per hash, how many test rows and the first. */
export interface TestRowIndex {
  testFile: string;
  features: string[];
  rows: Map<string, { count: number; row: number; id: string }>;
  testRows: number;
}

/** Index the feature rows of a test table over `features` (its columns shared with a train file). */
export function indexTestRows(testFile: string, table: Table, features: string[], idColumn: string | null): TestRowIndex {
  const idCol = idColumn ? table.data.get(idColumn) : undefined;
  const rows = new Map<string, { count: number; row: number; id: string }>();
  for (let i = 0; i < table.rowCount; i++) {
    const h = rowHash(table, features, i);
    if (h === null) continue;
    const e = rows.get(h);
    if (e) e.count++;
    else rows.set(h, { count: 1, row: i, id: idCol ? cellKey(idCol, i) : `row ${i + 1}` });
  }
  return { testFile, features, rows, testRows: table.rowCount };
}

/** Test rows whose features reappear in a train table; a warning, since real data has genuine duplicates. */
export function duplicateRows(
  trainFile: string,
  train: Table,
  index: TestRowIndex,
  idColumn: string | null,
  opts: ResolvedOptions,
): LeakageFinding | null {
  const idCol = idColumn ? train.data.get(idColumn) : undefined;
  const matched = new Set<string>();
  let trainRows = 0;
  const examples: string[] = [];
  for (let i = 0; i < train.rowCount; i++) {
    const h = rowHash(train, index.features, i);
    if (h === null) continue;
    const e = index.rows.get(h);
    if (!e) continue;
    trainRows++;
    if (!matched.has(h)) {
      matched.add(h);
      if (examples.length < opts.maxExamples) {
        const trainId = idCol ? `${idColumn} ${cellKey(idCol, i)}` : `row ${i + 1}`;
        examples.push(`${index.testFile} ${idCol ? `${idColumn} ${e.id}` : e.id} = ${trainFile} ${trainId}`);
      }
    }
  }
  if (matched.size === 0) return null;
  let testRows = 0;
  for (const h of matched) testRows += index.rows.get(h)!.count;
  return {
    kind: "duplicate-rows",
    severity: "warning",
    message: `${testRows} of ${index.testRows} rows of ${index.testFile} repeat a row of ${trainFile} (${trainRows} train rows) on the ${index.features.length} shared feature columns ${index.features.join(", ")}`,
    file: trainFile,
    share: testRows / index.testRows,
    count: testRows,
    examples,
  };
}
