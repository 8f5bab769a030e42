// Jaccard index: a plain set version, and scikit-learn's jaccard_score over label vectors or
// multilabel indicator matrices.
import { numpySum } from "./sum.js";

/** |A ∩ B| / |A ∪ B| over the distinct elements of a and b; bothEmpty when neither has any. */
export function jaccardSimilarity<T>(a: Iterable<T>, b: Iterable<T>, bothEmpty = Number.NaN): number {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size === 0 && sb.size === 0) return bothEmpty;
  let inter = 0;
  for (const v of sa) if (sb.has(v)) inter++;
  return inter / (sa.size + sb.size - inter);
}

export type JaccardAverage = "binary" | "micro" | "macro" | "samples";
export type ClassLabel = number | string;
/** Either a label per sample, or a 0/1 indicator row per sample (multilabel). */
export type JaccardTargets = readonly ClassLabel[] | readonly (readonly number[])[];

type Parsed =
  | { kind: "labels"; values: readonly ClassLabel[] }
  | { kind: "multilabel"; rows: readonly (readonly number[])[]; width: number };

function parseTargets(which: string, y: JaccardTargets): Parsed {
  const rows = y.filter((v) => Array.isArray(v)).length;
  if (rows > 0 && rows !== y.length) {
    throw new Error(`jaccardScore: ${which} mixes indicator rows with single labels`);
  }
  if (rows === 0) {
    const values = y as readonly ClassLabel[];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === "string") continue;
      if (typeof v !== "number") throw new Error(`jaccardScore: ${which}[${i}] is not a number or string label`);
      if (Number.isNaN(v)) throw new Error(`jaccardScore: Input ${which} contains NaN (at index ${i})`);
      // Non-integral floats make the target "continuous", which classification metrics refuse.
      if (!Number.isInteger(v)) {
        throw new Error(`jaccardScore: ${which} is continuous (value ${v} at index ${i}); labels must be integers or strings`);
      }
    }
    return { kind: "labels", values };
  }
  const matrix = y as readonly (readonly number[])[];
  const width = matrix[0].length;
  if (width === 0) throw new Error(`jaccardScore: ${which} indicator rows have no columns`);
  for (let i = 0; i < matrix.length; i++) {
    if (matrix[i].length !== width) {
      throw new Error(`jaccardScore: ${which} rows have different lengths (${width} and ${matrix[i].length} at row ${i})`);
    }
  }
  // A single column is a label vector in disguise (scikit-learn ravels it).
  if (width === 1) return parseTargets(which, matrix.map((r) => r[0]));
  for (let i = 0; i < matrix.length; i++) {
    for (let j = 0; j < width; j++) {
      const v = matrix[i][j];
      if (v !== 0 && v !== 1) {
        throw new Error(
          `jaccardScore: ${which} is not a multilabel indicator matrix: entries must be 0 or 1 (got ${v} at [${i}][${j}])`,
        );
      }
    }
  }
  return { kind: "multilabel", rows: matrix, width };
}

function compareLabels(a: ClassLabel, b: ClassLabel): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  // Python orders str by code point; JS's default < orders by UTF-16 unit, which differs above U+FFFF.
  const ca = Array.from(String(a), (c) => c.codePointAt(0) as number);
  const cb = Array.from(String(b), (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) if (ca[i] !== cb[i]) return ca[i] - cb[i];
  return ca.length - cb.length;
}

function ratio(num: number, den: number): number {
  // zero_division: an empty union scores 0.
  return den === 0 ? 0 : num / den;
}

function mean(values: readonly number[]): number {
  return numpySum(values) / values.length;
}

/** scikit-learn jaccard_score (zero_division=0): binary labels, or multilabel 0/1 rows with micro/macro/samples averaging. */
export function jaccardScore(
  yTrue: JaccardTargets,
  yPred: JaccardTargets,
  options: { average: JaccardAverage; posLabel?: ClassLabel },
): number {
  const { average } = options;
  if (!["binary", "micro", "macro", "samples"].includes(average)) {
    throw new Error(`jaccardScore: unknown average "${String(average)}"; use binary, micro, macro or samples`);
  }
  if (yTrue.length !== yPred.length) {
    throw new Error(
      `jaccardScore: y_true and y_pred have inconsistent numbers of samples (${yTrue.length} vs ${yPred.length})`,
    );
  }
  const t = parseTargets("y_true", yTrue);
  const p = parseTargets("y_pred", yPred);
  if (t.kind !== p.kind) {
    const name = (k: Parsed["kind"]) => (k === "multilabel" ? "multilabel-indicator" : "label");
    throw new Error(`jaccardScore: can't handle a mix of ${name(t.kind)} and ${name(p.kind)} targets`);
  }

  if (t.kind === "multilabel" && p.kind === "multilabel") {
    if (t.width !== p.width) {
      throw new Error(`jaccardScore: multilabel inputs have different numbers of labels (${t.width} vs ${p.width})`);
    }
    if (average === "binary") {
      throw new Error(
        "jaccardScore: target is multilabel-indicator but average='binary'; choose micro, macro or samples",
      );
    }
    const n = t.rows.length;
    const w = t.width;
    if (average === "samples") {
      const scores: number[] = [];
      for (let i = 0; i < n; i++) {
        let inter = 0;
        let union = 0;
        for (let j = 0; j < w; j++) {
          const a = t.rows[i][j];
          const b = p.rows[i][j];
          inter += a & b;
          union += a | b;
        }
        scores.push(ratio(inter, union));
      }
      return mean(scores);
    }
    const inter = new Array<number>(w).fill(0);
    const union = new Array<number>(w).fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < w; j++) {
        inter[j] += t.rows[i][j] & p.rows[i][j];
        union[j] += t.rows[i][j] | p.rows[i][j];
      }
    }
    if (average === "micro") return ratio(inter.reduce((s, v) => s + v, 0), union.reduce((s, v) => s + v, 0));
    return mean(inter.map((v, j) => ratio(v, union[j])));
  }

  const trueLabels = (t as { values: readonly ClassLabel[] }).values;
  const predLabels = (p as { values: readonly ClassLabel[] }).values;
  const present = [...new Set<ClassLabel>([...trueLabels, ...predLabels])];
  const kinds = new Set(present.map((v) => typeof v));
  if (kinds.size > 1) throw new Error("jaccardScore: mix of label input types (string and number)");
  present.sort(compareLabels);

  if (average === "samples") {
    throw new Error("jaccardScore: average='samples' needs multilabel indicator rows, not single labels");
  }
  // One pass: per label, how often it is true, predicted, and both.
  const tally = new Map<ClassLabel, { t: number; p: number; both: number }>();
  const entry = (label: ClassLabel) => {
    let e = tally.get(label);
    if (e === undefined) tally.set(label, (e = { t: 0, p: 0, both: 0 }));
    return e;
  };
  for (let i = 0; i < trueLabels.length; i++) {
    entry(trueLabels[i]).t++;
    entry(predLabels[i]).p++;
    if (trueLabels[i] === predLabels[i]) entry(trueLabels[i]).both++;
  }
  const perLabel = (label: ClassLabel): [number, number] => {
    const e = tally.get(label) ?? { t: 0, p: 0, both: 0 };
    return [e.both, e.t + e.p - e.both];
  };
  if (average === "binary") {
    if (present.length > 2) {
      throw new Error(
        `jaccardScore: target is multiclass (${present.length} labels) but average='binary'; choose micro or macro`,
      );
    }
    const posLabel = options.posLabel ?? 1;
    // A pos_label that never occurs is only an error when two other labels are present.
    if (!present.includes(posLabel) && present.length >= 2) {
      throw new Error(
        `jaccardScore: pos_label=${JSON.stringify(posLabel)} is not a valid label; it should be one of ` +
          `${JSON.stringify(present)}`,
      );
    }
    const [inter, union] = perLabel(posLabel);
    return ratio(inter, union);
  }
  const counts = present.map(perLabel);
  if (average === "micro") {
    return ratio(
      counts.reduce((s, c) => s + c[0], 0),
      counts.reduce((s, c) => s + c[1], 0),
    );
  }
  return mean(counts.map(([i, u]) => ratio(i, u)));
}
