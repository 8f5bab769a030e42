/** Column checks: does one public column give away a target on the answer rows it aligns with? */
import type { Column } from "../../core/table.js";
import type { LeakageFinding, ResolvedOptions } from "./types.js";

/** The key of a missing cell; no CSV text can produce it. */
export const MISSING = "\u0000";

/**
 * A cell as comparable text: numbers by their shortest form (so 1 and 1.0 agree), booleans as
 * pandas prints them, missing values as {@link MISSING}.
 */
export function cellKey(col: Column, i: number): string {
  switch (col.kind) {
    case "int":
    case "float": {
      const v = col.values[i];
      return Number.isNaN(v) ? MISSING : String(v);
    }
    case "bool":
      return col.values[i] === 1 ? "True" : "False";
    case "bigint":
      return col.values[i].toString();
    case "string":
    case "object": {
      const v = col.values[i];
      return v === null ? MISSING : String(v === true ? "True" : v === false ? "False" : v);
    }
  }
}

/** Shown in examples: missing cells read "<missing>". */
function show(key: string): string {
  return key === MISSING ? "<missing>" : key.length > 60 ? `${key.slice(0, 57)}...` : key;
}

/** A target column of the answers, with what the checks need of it. */
export interface Target {
  name: string;
  keys: string[];
  /** Numeric values (NaN when missing), or null for text targets. */
  numbers: Float64Array | null;
  kind: "classes" | "numeric" | "text";
  distinct: number;
}

/** Describe an answers column: classes when it has few distinct values, else numeric or text. */
export function describeTarget(name: string, col: Column, maxClasses: number): Target {
  const keys = Array.from({ length: col.values.length }, (_, i) => cellKey(col, i));
  const distinct = new Set(keys).size;
  const numbers = col.kind === "int" || col.kind === "float" ? Float64Array.from(col.values) : null;
  const kind = distinct <= maxClasses ? "classes" : numbers ? "numeric" : "text";
  return { name, keys, numbers, kind, distinct };
}

/** Public rows paired with the answer rows of the same id. */
export interface Alignment {
  publicRows: Int32Array;
  answerRows: Int32Array;
}

/** Pair each public row whose id is an answer id with that answer row. */
export function alignOnId(idCol: Column, answerIndex: Map<string, number>): Alignment {
  const pub: number[] = [];
  const ans: number[] = [];
  for (let i = 0; i < idCol.values.length; i++) {
    const a = answerIndex.get(cellKey(idCol, i));
    if (a !== undefined) {
      pub.push(i);
      ans.push(a);
    }
  }
  return { publicRows: Int32Array.from(pub), answerRows: Int32Array.from(ans) };
}

/** Where a column sits, for messages. */
export interface ColumnPlace {
  file: string;
  column: string;
  /** Answer ids by answer row, for examples. */
  answerIds: string[];
}

/**
 * The strongest leak one public column shows against one target, or null. In order: equal
 * values, a one-to-one relabelling, a value→class map that is near-perfect, a numeric column
 * that alone ranks or predicts the target near-perfectly.
 */
export function compareColumn(col: Column, place: ColumnPlace, al: Alignment, target: Target, opts: ResolvedOptions): LeakageFinding | null {
  const n = al.publicRows.length;
  if (n < opts.minRows) return null;
  const ck = new Array<string>(n);
  const tk = new Array<string>(n);
  for (let k = 0; k < n; k++) {
    ck[k] = cellKey(col, al.publicRows[k]);
    tk[k] = target.keys[al.answerRows[k]];
  }
  const cDistinct = new Set(ck).size;
  if (cDistinct <= 1) return null;
  const tCounts = countValues(tk);
  const tDistinct = tCounts.size;
  if (tDistinct <= 1) return null;
  // A share only counts when it beats always guessing the commonest target value by a margin:
  // with a 97%-majority target, 97% agreement says nothing.
  let commonest = 0;
  for (const c of tCounts.values()) if (c > commonest) commonest = c;
  const base = commonest / n;
  const lifts = (share: number) => (share - base) / (1 - base) >= 0.5;
  const where = `column ${place.column} of ${place.file}`;
  const about = { file: place.file, column: place.column, target: target.name };
  const idOf = (k: number) => place.answerIds[al.answerRows[k]];

  let equal = 0;
  for (let k = 0; k < n; k++) if (ck[k] === tk[k]) equal++;
  if (equal / n >= opts.minShare && lifts(equal / n)) {
    const examples: string[] = [];
    for (let k = 0; k < n && examples.length < opts.maxExamples; k++) {
      if (ck[k] === tk[k]) examples.push(`id ${idOf(k)}: ${place.column}=${show(ck[k])}, ${target.name}=${show(tk[k])}`);
    }
    // Equal on every row is a copy; equal on nearly every row may be a genuine identity-like
    // feature (tokens that text normalisation leaves unchanged), so it is only a warning.
    return {
      kind: "column-copy",
      severity: equal === n ? "leak" : "warning",
      message: `${where} equals target ${target.name} on ${equal} of ${n} answer rows`,
      ...about,
      share: equal / n,
      count: equal,
      examples,
    };
  }

  // A relabelling needs repeated target values, or any column of unique values would qualify.
  if (cDistinct === tDistinct && tDistinct <= n / 2) {
    const pairs = oneToOne(ck, tk);
    if (pairs) {
      return {
        kind: "one-to-one",
        severity: "leak",
        message: `${where} maps one-to-one onto target ${target.name} (${tDistinct} values) on all ${n} answer rows`,
        ...about,
        share: 1,
        count: n,
        examples: [...pairs].slice(0, opts.maxExamples).map(([c, t]) => `${show(c)} -> ${show(t)}`),
      };
    }
  }

  // The majority map is scored leave-one-out: each row is predicted from the other rows with
  // its value, so a value seen once cannot memorise its own target. Values must still cover
  // ten rows on average, which keeps the groups large enough to say something.
  if (target.kind === "classes" && cDistinct <= n / 10) {
    const groups = new Map<string, Map<string, number>>();
    for (let k = 0; k < n; k++) {
      let g = groups.get(ck[k]);
      if (!g) groups.set(ck[k], (g = new Map()));
      g.set(tk[k], (g.get(tk[k]) ?? 0) + 1);
    }
    const hits = leaveOneOutHits(groups, commonestKey(tCounts));
    const share = hits / n;
    if (share >= opts.minShare && lifts(share)) {
      const rules = [...groups].map(([value, g]) => {
        const [best, bestCount] = [...g].reduce((a, b) => (b[1] > a[1] ? b : a));
        let total = 0;
        for (const c of g.values()) total += c;
        return [value, best, bestCount, total] as const;
      });
      rules.sort((a, b) => b[3] - a[3]);
      return {
        kind: "determines",
        severity: "leak",
        message: `${where} determines target ${target.name}: the majority target of the other rows with the same value (${cDistinct} values) is right on ${hits} of ${n} answer rows`,
        ...about,
        share,
        count: hits,
        examples: rules.slice(0, opts.maxExamples).map(([v, t, c, total]) => `${show(v)} -> ${show(t)} (${c} of ${total} rows)`),
      };
    }
  }

  if ((col.kind === "int" || col.kind === "float") && target.numbers) {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let k = 0; k < n; k++) {
      const x = col.values[al.publicRows[k]];
      const y = target.numbers[al.answerRows[k]];
      if (Number.isFinite(x) && Number.isFinite(y)) {
        xs.push(x);
        ys.push(y);
      }
    }
    if (xs.length < opts.minRows) return null;
    const stat = tDistinct === 2 ? { name: "auc" as const, value: separation(xs, ys) } : strongerCorrelation(xs, ys);
    if (stat.value >= opts.minStatistic) {
      // Exactly 1 means the target is a monotone function (or a threshold) of the column; below
      // that the column may just be a very good genuine feature (rain and precipitation).
      // A perfect AUC on a handful of positives is no proof either, so both values need minRows rows.
      const exact = stat.value >= 1 - 1e-12 && (stat.name !== "auc" || minorityCount(ys) >= opts.minRows);
      const described = stat.name === "auc" ? `separates the two values of target ${target.name} with AUC ${fmt(stat.value)} (either direction)` : `has |${stat.name} r| = ${fmt(stat.value)} with target ${target.name}`;
      return {
        kind: "single-feature",
        severity: exact ? "leak" : "warning",
        message: `${where} alone ${described} over ${xs.length} answer rows`,
        ...about,
        count: xs.length,
        statistic: stat,
        examples: xs.slice(0, opts.maxExamples).map((x, k) => `${place.column}=${x}, ${target.name}=${ys[k]}`),
      };
    }
  }
  return null;
}

function fmt(x: number): string {
  return x.toFixed(4);
}

function commonestKey(counts: Map<string, number>): string {
  let best = "";
  let bestCount = -1;
  for (const [k, c] of counts) if (c > bestCount) [best, bestCount] = [k, c];
  return best;
}

/**
 * Rows whose target is the strict majority among the other rows sharing their value; a row
 * alone with its value is predicted by the commonest target overall.
 */
function leaveOneOutHits(groups: Map<string, Map<string, number>>, commonest: string): number {
  let hits = 0;
  for (const g of groups.values()) {
    let size = 0;
    for (const c of g.values()) size += c;
    if (size === 1) {
      if (g.has(commonest)) hits++;
      continue;
    }
    for (const [t, c] of g) {
      let otherBest = 0;
      for (const [u, d] of g) if (u !== t && d > otherBest) otherBest = d;
      if (c - 1 > otherBest) hits += c;
    }
  }
  return hits;
}

function countValues(keys: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** The column→target map when it is a bijection on these rows, else null. */
function oneToOne(ck: string[], tk: string[]): Map<string, string> | null {
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (let k = 0; k < ck.length; k++) {
    const f = forward.get(ck[k]);
    const b = backward.get(tk[k]);
    if (f === undefined) forward.set(ck[k], tk[k]);
    else if (f !== tk[k]) return null;
    if (b === undefined) backward.set(tk[k], ck[k]);
    else if (b !== ck[k]) return null;
  }
  return forward;
}

/** Rows holding the rarer of the two values in ys. */
function minorityCount(ys: number[]): number {
  let top = -Infinity;
  for (const y of ys) if (y > top) top = y;
  let pos = 0;
  for (const y of ys) if (y === top) pos++;
  return Math.min(pos, ys.length - pos);
}

/** Ranks 1..n with ties given their average rank (scipy's rankdata "average"). */
export function averageRanks(xs: number[]): Float64Array {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b]);
  const ranks = new Float64Array(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && xs[order[j + 1]] === xs[order[i]]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]] = r;
    i = j + 1;
  }
  return ranks;
}

/** Pearson's r; 0 when either side is constant. */
export function pearson(xs: ArrayLike<number>, ys: ArrayLike<number>): number {
  const n = xs.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    my += ys[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx;
    const dy = ys[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/** The larger of |Pearson| and |Spearman|, named. */
function strongerCorrelation(xs: number[], ys: number[]): { name: "pearson" | "spearman"; value: number } {
  const p = Math.abs(pearson(xs, ys));
  const s = Math.abs(pearson(averageRanks(xs), averageRanks(ys)));
  return s > p ? { name: "spearman", value: s } : { name: "pearson", value: p };
}

/** max(AUC, 1 − AUC) of xs as a score for the larger of the two values in ys (Mann–Whitney, ties halved). */
export function separation(xs: number[], ys: number[]): number {
  let top = -Infinity;
  for (const y of ys) if (y > top) top = y;
  const ranks = averageRanks(xs);
  let pos = 0;
  let rankSum = 0;
  for (let i = 0; i < ys.length; i++) {
    if (ys[i] === top) {
      pos++;
      rankSum += ranks[i];
    }
  }
  const neg = ys.length - pos;
  if (pos === 0 || neg === 0) return 0.5;
  const auc = (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
  return Math.max(auc, 1 - auc);
}
