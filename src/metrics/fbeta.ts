import { numpySum } from "./sum.js";
import { canonicalLabel, formatLabel, formatLabels, resolveTargets, type CanonicalLabel, type Label, type ResolvedTargets } from "./labels.js";

/** How per-label scores are combined, as scikit-learn's `average` parameter. */
export type Average = "binary" | "micro" | "macro" | "weighted" | "samples";

/** Options shared by precision, recall and F-beta. */
export interface PrfOptions {
  /** Defaults to "binary", as in scikit-learn. */
  average?: Average;
  /** The positive class for average "binary"; defaults to 1 (which also matches `true`). */
  posLabel?: Label;
  /** Labels to score (column indices for indicator matrices); others are left out of the average. */
  labels?: readonly Label[];
  /** Value of a score whose denominator is 0; scikit-learn's default "warn" behaves as 0. */
  zeroDivision?: 0 | 1;
}

/** Averaged precision, recall and F-beta score. */
export interface PrfScores {
  precision: number;
  recall: number;
  fScore: number;
}

/** Classification inputs: 1-D label arrays, or label-indicator matrices for multilabel tasks. */
export type ClassificationInput = readonly Label[] | ArrayLike<number> | readonly (readonly number[])[];

const AVERAGES: readonly Average[] = ["binary", "micro", "macro", "weighted", "samples"];

interface Counts {
  tp: Float64Array;
  pred: Float64Array;
  truth: Float64Array;
}

function selectBinaryLabel(targets: ResolvedTargets, posLabel: Label): Label[] {
  if (targets.kind === "labels" && targets.type === "binary") {
    const pos = canonicalLabel(posLabel);
    const present = targets.labels;
    if (present.length >= 2 && !present.some((l) => canonicalLabel(l) === pos)) {
      throw new Error(
        `pos_label=${formatLabel(posLabel)} is not among the labels present: ${formatLabels(present)}`,
      );
    }
    return [posLabel];
  }
  const options = targets.kind === "multilabel" ? "micro, macro, weighted, samples" : "micro, macro, weighted";
  throw new Error(`average "binary" needs binary targets, but these are ${targets.type}; use one of: ${options}`);
}

function labelCounts(
  targets: Extract<ResolvedTargets, { kind: "labels" }>,
  selected: readonly Label[] | undefined,
  explicitLabels: boolean,
): Counts {
  const present = targets.labels;
  const index = new Map<CanonicalLabel, number>();
  present.forEach((label, i) => index.set(canonicalLabel(label) as CanonicalLabel, i));
  const k = present.length;
  const tpAll = new Float64Array(k);
  const predAll = new Float64Array(k);
  const trueAll = new Float64Array(k);
  const { yTrue, yPred } = targets;
  for (let i = 0; i < yTrue.length; i++) {
    const a = index.get(canonicalLabel(yTrue[i]) as CanonicalLabel) as number;
    const b = index.get(canonicalLabel(yPred[i]) as CanonicalLabel) as number;
    trueAll[a]++;
    predAll[b]++;
    if (a === b) tpAll[a]++;
  }
  if (selected === undefined) return { tp: tpAll, pred: predAll, truth: trueAll };
  const presentIsString = present.length > 0 && typeof canonicalLabel(present[0]) === "string";
  const m = selected.length;
  const counts: Counts = { tp: new Float64Array(m), pred: new Float64Array(m), truth: new Float64Array(m) };
  selected.forEach((label, j) => {
    const key = canonicalLabel(label);
    if (key === null) throw new Error("labels must not contain null");
    if (explicitLabels && present.length > 0 && (typeof key === "string") !== presentIsString) {
      throw new Error("Mix of label input types (string and number)");
    }
    const at = index.get(key);
    if (at === undefined) return; // a requested label that never occurs scores 0 / zero_division
    counts.tp[j] = tpAll[at];
    counts.pred[j] = predAll[at];
    counts.truth[j] = trueAll[at];
  });
  return counts;
}

function multilabelCounts(
  targets: Extract<ResolvedTargets, { kind: "multilabel" }>,
  selected: readonly Label[] | undefined,
  samplewise: boolean,
): Counts {
  const { rows, cols } = targets;
  let columns: number[];
  if (selected === undefined) {
    columns = Array.from({ length: cols }, (_, j) => j);
  } else {
    columns = selected.map((label) => {
      const c = canonicalLabel(label);
      if (typeof c !== "number" || !Number.isInteger(c)) {
        throw new Error(`labels must be column indices for multilabel targets; got ${formatLabel(label)}`);
      }
      return c;
    });
    const same = columns.length === cols && columns.every((c, j) => c === j);
    if (!same && columns.length > 0) {
      const max = Math.max(...columns);
      const min = Math.min(...columns);
      if (max > cols - 1) {
        throw new Error(`labels for multilabel targets are column indices 0 to ${cols - 1}; got ${max}`);
      }
      if (min < 0) throw new Error(`labels for multilabel targets are column indices 0 to ${cols - 1}; got ${min}`);
    }
  }
  const size = samplewise ? rows : columns.length;
  const counts: Counts = { tp: new Float64Array(size), pred: new Float64Array(size), truth: new Float64Array(size) };
  for (let i = 0; i < rows; i++) {
    const a = targets.yTrue[i];
    const b = targets.yPred[i];
    for (let j = 0; j < columns.length; j++) {
      const t = a[columns[j]] !== 0;
      const p = b[columns[j]] !== 0;
      const slot = samplewise ? i : j;
      if (t) counts.truth[slot]++;
      if (p) counts.pred[slot]++;
      if (t && p) counts.tp[slot]++;
    }
  }
  return counts;
}

function divide(numerator: Float64Array, denominator: Float64Array, zeroDivision: number): Float64Array {
  const out = new Float64Array(numerator.length);
  for (let i = 0; i < out.length; i++) {
    out[i] = denominator[i] === 0 ? zeroDivision : numerator[i] / denominator[i];
  }
  return out;
}

// scikit-learn's _nanaverage; with zero_division restricted to 0/1 no NaN can occur, and an
// all-zero weight vector falls back to the unweighted mean (as numpy raises and it retries).
function average(values: Float64Array, weights: Float64Array | undefined): number {
  if (values.length === 0) return NaN;
  if (weights !== undefined) {
    const scale = numpySum(weights);
    if (scale !== 0) {
      const products = new Float64Array(values.length);
      for (let i = 0; i < values.length; i++) products[i] = values[i] * weights[i];
      return numpySum(products) / scale;
    }
  }
  return numpySum(values) / values.length;
}

/** Precision, recall and F-beta together, with scikit-learn's `precision_recall_fscore_support` semantics. */
export function precisionRecallFscore(
  yTrue: ClassificationInput,
  yPred: ClassificationInput,
  beta: number,
  options: PrfOptions = {},
): PrfScores {
  const averaging = options.average ?? "binary";
  if (!AVERAGES.includes(averaging)) {
    throw new Error(`average must be one of ${AVERAGES.join(", ")}; got ${String(averaging)}`);
  }
  if (typeof beta !== "number" || Number.isNaN(beta) || beta < 0) {
    throw new Error(`beta must be a non-negative number; got ${String(beta)}`);
  }
  const zeroDivision = options.zeroDivision ?? 0;
  if (zeroDivision !== 0 && zeroDivision !== 1) {
    throw new Error(`zeroDivision must be 0 or 1; got ${String(zeroDivision)}`);
  }
  const targets = resolveTargets(yTrue, yPred);
  const selected = averaging === "binary" ? selectBinaryLabel(targets, options.posLabel ?? 1) : options.labels;

  let counts: Counts;
  if (targets.kind === "labels") {
    if (averaging === "samples") {
      throw new Error('average "samples" needs multilabel targets (indicator matrices), not 1-D labels');
    }
    counts = labelCounts(targets, selected, averaging !== "binary" && options.labels !== undefined);
  } else {
    counts = multilabelCounts(targets, selected, averaging === "samples");
  }
  if (averaging === "micro") {
    counts = {
      tp: Float64Array.of(numpySum(counts.tp)),
      pred: Float64Array.of(numpySum(counts.pred)),
      truth: Float64Array.of(numpySum(counts.truth)),
    };
  }

  const precision = divide(counts.tp, counts.pred, zeroDivision);
  const recall = divide(counts.tp, counts.truth, zeroDivision);
  let fScore: Float64Array;
  if (beta === Infinity) {
    fScore = recall;
  } else if (beta === 0) {
    fScore = precision;
  } else {
    // (1 + b²)·tp / (b²·(tp + fn) + (tp + fp)): scikit-learn >= 1.3 works from counts, so an
    // F-score is zero_division only when a label has neither true nor predicted samples.
    const beta2 = beta * beta;
    const numerator = new Float64Array(counts.tp.length);
    const denominator = new Float64Array(counts.tp.length);
    for (let i = 0; i < numerator.length; i++) {
      numerator[i] = (1 + beta2) * counts.tp[i];
      denominator[i] = beta2 * counts.truth[i] + counts.pred[i];
    }
    fScore = divide(numerator, denominator, zeroDivision);
  }
  const weights = averaging === "weighted" ? counts.truth : undefined;
  return {
    precision: average(precision, weights),
    recall: average(recall, weights),
    fScore: average(fScore, weights),
  };
}

/** F-beta score (recall weighted beta times as much as precision), as scikit-learn's `fbeta_score`. */
export function fbeta(
  yTrue: ClassificationInput,
  yPred: ClassificationInput,
  beta: number,
  options: PrfOptions = {},
): number {
  return precisionRecallFscore(yTrue, yPred, beta, options).fScore;
}

/** F1 score, as scikit-learn's `f1_score`. */
export function f1(yTrue: ClassificationInput, yPred: ClassificationInput, options: PrfOptions = {}): number {
  return fbeta(yTrue, yPred, 1, options);
}
