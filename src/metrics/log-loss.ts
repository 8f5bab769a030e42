import { numpySum } from "./sum.js";
import { canonicalLabel, formatLabels, isMatrix, lengthMismatchError, nonFiniteError, squeezeColumn, typeOfMatrix, typeOfTarget, uniqueLabels, type CanonicalLabel, type Label } from "./labels.js";

/** float64 machine epsilon: scikit-learn >= 1.5 clips probabilities to [eps, 1 - eps]. */
export const LOG_LOSS_EPS = 2.220446049250313e-16;

/** Options of {@link logLoss}. */
export interface LogLossOptions {
  /**
   * All class labels; y_pred's columns follow their sorted order. Without it the classes are
   * taken from y_true (or, for an indicator y_true, its columns).
   */
  labels?: readonly Label[];
}

interface Binarized {
  /** Row-major n × k matrix of targets. */
  values: Float64Array;
  cols: number;
}

// One-vs-all encoding as scikit-learn's LabelBinarizer produces it for log_loss.
function binarize(
  yTrue: ArrayLike<Label>,
  classes: readonly Label[],
): Binarized {
  const n = yTrue.length;
  const type = typeOfTarget(yTrue, "y_true");
  if (type === "continuous" || type === "unknown") {
    throw new Error(
      type === "unknown"
        ? "y_true must hold class labels (strings or numbers, with no missing values)"
        : "y_true holds continuous values, not class labels",
    );
  }
  const index = new Map<CanonicalLabel, number>();
  classes.forEach((label, position) => index.set(canonicalLabel(label) as CanonicalLabel, position));
  const classesAreStrings = typeof canonicalLabel(classes[0]) === "string";
  // A binary y_true against exactly two classes is encoded as one column (the greater label)
  // and widened to [1 - t, t]; labels outside `classes` therefore land in the first column.
  const single = type === "binary" && classes.length === 2;
  const cols = classes.length;
  const values = new Float64Array(n * cols);
  for (let i = 0; i < n; i++) {
    const key = canonicalLabel(yTrue[i]) as CanonicalLabel;
    if ((typeof key === "string") !== classesAreStrings) {
      throw new Error("Mix of label input types (string and number)");
    }
    const position = index.get(key);
    if (single) {
      const t = position === 1 ? 1 : 0;
      values[i * 2] = 1 - t;
      values[i * 2 + 1] = t;
    } else if (position !== undefined) {
      values[i * cols + position] = 1;
    }
  }
  return { values, cols };
}

function predictionMatrix(yPred: ArrayLike<number> | readonly ArrayLike<number>[]): {
  values: Float64Array;
  rows: number;
  cols: number;
} {
  const rows = yPred.length;
  if (rows === 0) throw new Error("y_pred is empty: log loss needs at least one sample");
  const notNumber = (v: unknown, i: number): Error =>
    new Error(`y_pred must hold numbers; found ${typeof v} at row ${i}`);
  let nonFinite: number | undefined;
  let values: Float64Array;
  let cols: number;
  if (isMatrix(yPred as ArrayLike<Label> | readonly ArrayLike<number>[])) {
    const matrix = yPred as readonly ArrayLike<number>[];
    cols = matrix[0].length;
    if (cols === 0) throw new Error("y_pred has no columns");
    // A single probability column is the positive class; the negative class is its complement.
    const width = cols === 1 ? 2 : cols;
    values = new Float64Array(rows * width);
    for (let i = 0; i < rows; i++) {
      const row = matrix[i];
      if (row === null || typeof row !== "object" || row.length !== cols) {
        throw new Error(`y_pred must be a rectangular matrix: row ${i} has ${row?.length ?? 0} entries, row 0 has ${cols}`);
      }
      for (let j = 0; j < cols; j++) {
        const v = row[j];
        if (typeof v !== "number") throw notNumber(v, i);
        if (v - v !== 0 && (nonFinite === undefined || Number.isNaN(v))) nonFinite = v;
        if (width !== cols) values[i * 2] = 1 - v;
        values[i * width + width - cols + j] = v;
      }
    }
    cols = width;
  } else {
    const vector = yPred as ArrayLike<number>;
    cols = 2;
    values = new Float64Array(rows * 2);
    for (let i = 0; i < rows; i++) {
      const v = vector[i];
      if (typeof v !== "number") throw notNumber(v, i);
      if (v - v !== 0 && (nonFinite === undefined || Number.isNaN(v))) nonFinite = v;
      values[i * 2] = 1 - v;
      values[i * 2 + 1] = v;
    }
  }
  if (nonFinite !== undefined) throw nonFiniteError(nonFinite);
  return { values, rows, cols };
}

/** Cross-entropy, as scikit-learn >= 1.5's `log_loss`: clipped to [eps, 1 - eps], rows not renormalised. */
export function logLoss(
  yTrue: readonly Label[] | readonly (readonly number[])[],
  yPred: ArrayLike<number> | readonly ArrayLike<number>[],
  options: LogLossOptions = {},
): number {
  const pred = predictionMatrix(yPred);
  if (yTrue.length !== pred.rows) throw lengthMismatchError(yTrue.length, pred.rows);

  let trueLabels: ArrayLike<Label> | undefined;
  let target: Binarized;
  let classes: readonly Label[];
  const trueMatrix = isMatrix(yTrue as readonly Label[] | readonly ArrayLike<number>[]);
  const matrixInfo = trueMatrix ? typeOfMatrix(yTrue as readonly (readonly number[])[], "y_true") : undefined;
  if (matrixInfo && matrixInfo.cols === 1) trueLabels = squeezeColumn(yTrue as readonly (readonly number[])[]);
  else if (!trueMatrix) trueLabels = yTrue as readonly Label[];

  if (options.labels !== undefined) {
    if (options.labels.length === 0) throw new Error("labels is empty: log loss needs the class labels");
    classes = uniqueLabels(options.labels);
  } else if (trueLabels !== undefined) {
    classes = uniqueLabels(trueLabels);
  } else {
    const info = matrixInfo as { type: string; cols: number };
    if (info.type !== "multilabel-indicator") {
      throw new Error(
        `y_true is a ${info.type} matrix; log loss needs class labels or a 0/1 indicator matrix`,
      );
    }
    classes = Array.from({ length: info.cols }, (_, j) => j);
  }

  if (classes.length === 1) {
    throw new Error(
      options.labels === undefined
        ? `y_true holds a single class (${formatLabels(classes).slice(1, -1)}); pass every class through the labels option`
        : `labels must name at least two classes for log loss; got ${formatLabels(classes)}`,
    );
  }

  if (trueLabels !== undefined) {
    target = binarize(trueLabels, classes);
  } else {
    const info = matrixInfo as { type: string; cols: number };
    if (options.labels !== undefined) {
      throw new Error("labels apply to 1-D class labels, but y_true is an indicator matrix");
    }
    // The indicator's own values are the targets (scikit-learn keeps them as integers).
    const matrix = yTrue as readonly (readonly number[])[];
    const values = new Float64Array(matrix.length * info.cols);
    for (let i = 0; i < matrix.length; i++) {
      for (let j = 0; j < info.cols; j++) values[i * info.cols + j] = matrix[i][j];
    }
    target = { values, cols: info.cols };
  }

  if (classes.length !== pred.cols) {
    const found = formatLabels(classes);
    throw new Error(
      options.labels === undefined
        ? `y_pred has ${pred.cols} columns but y_true has ${classes.length} classes ${found}; ` +
          "if y_true lacks some classes, pass every class through the labels option"
        : `y_pred has ${pred.cols} columns but labels name ${classes.length} classes ${found}`,
    );
  }

  const n = pred.rows;
  const k = pred.cols;
  const hi = 1 - LOG_LOSS_EPS;
  const rowLoss = new Float64Array(n);
  const terms = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const t = target.values[i * k + j];
      let term = 0; // xlogy(0, p) is 0
      if (t !== 0) {
        let p = pred.values[i * k + j];
        if (p < LOG_LOSS_EPS) p = LOG_LOSS_EPS;
        else if (p > hi) p = hi;
        term = t * Math.log(p);
      }
      terms[j] = term;
      sum += term;
    }
    // numpy sums fewer than 8 values left to right, as the running sum above does.
    rowLoss[i] = -(k < 8 ? sum : numpySum(terms));
  }
  return numpySum(rowLoss) / n;
}
