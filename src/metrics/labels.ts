/**
 * Class labels and target-type checks shared by the classification metrics.
 *
 * The rules follow scikit-learn's `type_of_target`, `unique_labels` and
 * `_check_targets` for 1-D inputs, with numpy's notion of equality: `true`,
 * `1`, `1.0` and `1n` are the same label, while `"1"` and `1` are not.
 */

/** One class label as it can appear in a submission or an answers file. */
export type Label = string | number | boolean | bigint | null;

/** What scikit-learn's `type_of_target` reports for a 1-D array. */
export type TargetType = "binary" | "multiclass" | "continuous" | "unknown";

/** A label-indicator (one-hot or multilabel) matrix, one inner array per row. */
export type IndicatorMatrix = readonly (readonly number[])[];

/** What scikit-learn's `type_of_target` reports for a 2-D array with two or more columns. */
export type MatrixTargetType =
  | "multilabel-indicator"
  | "multiclass-multioutput"
  | "continuous-multioutput"
  | "unknown";

/** Labels reduced to one value per equivalence class, usable as Map/Set keys. */
export type CanonicalLabel = number | string | bigint;

const MIX_MESSAGE = "Mix of label input types (string and number)";
const INT64_MIN = -9223372036854775808;
const INT64_LIMIT = 9223372036854775808;

/** Maps a label onto the value that numpy would compare it by (booleans become 0/1). */
export function canonicalLabel(label: Label): CanonicalLabel | null {
  switch (typeof label) {
    case "string":
    case "number":
      return label;
    case "boolean":
      return label ? 1 : 0;
    case "bigint": {
      // Keep bigints that a double represents exactly as numbers so 3n and 3 share a key.
      const asNumber = Number(label);
      return BigInt(asNumber) === label ? asNumber : label;
    }
    default:
      if (label === null) return null;
      throw new Error(`Unsupported label value of type ${typeof label}: ${String(label)}`);
  }
}

/** Orders two canonical labels as numpy's sort does (numbers numerically, strings by code point). */
export function compareCanonical(a: CanonicalLabel, b: CanonicalLabel): number {
  const aString = typeof a === "string";
  if (aString !== (typeof b === "string")) throw new Error(MIX_MESSAGE);
  if (aString) return compareCodePoints(a as string, b as string);
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** True when numpy would call the two labels equal. */
export function labelsEqual(a: Label, b: Label): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return canonicalLabel(a) === canonicalLabel(b);
}

/** Renders a label the way error messages quote it. */
export function formatLabel(label: Label): string {
  if (typeof label === "string") return `'${label}'`;
  if (typeof label === "bigint") return label.toString();
  return String(label);
}

/** Renders a label list for error messages. */
export function formatLabels(labels: readonly Label[]): string {
  return `[${labels.map(formatLabel).join(", ")}]`;
}

// UTF-16 code-unit order differs from code-point order only for surrogates; shifting them
// above the rest of the BMP restores numpy's (UCS-4) ordering.
function codeUnitSortKey(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ua = a.charCodeAt(i);
    const ub = b.charCodeAt(i);
    if (ua !== ub) return codeUnitSortKey(ua) < codeUnitSortKey(ub) ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

function isIntegralFloat(x: number): boolean {
  // numpy casts floats to int64 to test integrality; values outside int64 fail that test.
  return Number.isInteger(x) && x >= INT64_MIN && x < INT64_LIMIT;
}

function inputPrefix(inputName: string | undefined): string {
  return inputName ? `Input ${inputName} ` : "Input ";
}

/** The error scikit-learn's finiteness check raises for a non-finite value. */
export function nonFiniteError(value: number, inputName?: string): Error {
  return Number.isNaN(value)
    ? new Error(`${inputPrefix(inputName)}contains NaN.`)
    : new Error(`${inputPrefix(inputName)}contains infinity or a value too large for dtype('float64').`);
}

/** Classifies a 1-D target like scikit-learn's `type_of_target`; NaN or infinity raises, as there. */
export function typeOfTarget(y: ArrayLike<Label>, inputName?: string): TargetType {
  const n = y.length;
  if (n === 0) return "binary";
  let sawString = false;
  let sawOther = false;
  let sawNull = false;
  let nonIntegral = false;
  let firstNonFinite: number | undefined;
  const distinct = new Set<CanonicalLabel>();
  for (let i = 0; i < n; i++) {
    const value = y[i];
    let key: CanonicalLabel;
    if (typeof value === "number") {
      sawOther = true;
      if (!isIntegralFloat(value)) {
        nonIntegral = true;
        if (!Number.isFinite(value) && (firstNonFinite === undefined || Number.isNaN(value))) {
          firstNonFinite = value;
        }
      }
      key = value;
    } else if (typeof value === "string") {
      sawString = true;
      key = value;
    } else {
      const canonical = canonicalLabel(value);
      if (canonical === null) {
        sawNull = true;
        continue;
      }
      sawOther = true;
      key = canonical;
    }
    if (distinct.size < 3) distinct.add(key);
  }
  // A missing value makes numpy fall back to an object array, which scikit-learn cannot type.
  if (sawNull) return "unknown";
  if (sawString && sawOther) {
    throw new Error(`${MIX_MESSAGE}${inputName ? ` in ${inputName}` : ""}`);
  }
  if (nonIntegral) {
    if (firstNonFinite !== undefined) throw nonFiniteError(firstNonFinite, inputName);
    return "continuous";
  }
  return distinct.size > 2 ? "multiclass" : "binary";
}

/** Sorted distinct labels across arrays, without target-type checks; keeps each label's first spelling. */
export function sortedUnion(ys: readonly ArrayLike<Label>[]): Label[] {
  const seen = new Map<CanonicalLabel, Label>();
  let sawString = false;
  let sawOther = false;
  for (const y of ys) {
    for (let i = 0; i < y.length; i++) {
      const value = y[i];
      const key = canonicalLabel(value);
      if (key === null) throw new Error("Missing (null) labels cannot be compared with other labels");
      if (seen.has(key)) continue;
      if (typeof key === "string") sawString = true;
      else sawOther = true;
      seen.set(key, value);
    }
  }
  if (sawString && sawOther) throw new Error(MIX_MESSAGE);
  const keys = [...seen.keys()].sort(compareCanonical);
  return keys.map((key) => seen.get(key) as Label);
}

/** Sorted distinct labels of one or more 1-D targets, with scikit-learn's `unique_labels` checks. */
export function uniqueLabels(...ys: readonly ArrayLike<Label>[]): Label[] {
  if (ys.length === 0) throw new Error("uniqueLabels needs at least one array of labels");
  const types = new Set(ys.map((y) => typeOfTarget(y)));
  if (types.has("binary") && types.has("multiclass")) types.delete("binary");
  if (types.size > 1) {
    throw new Error(`Label arrays have different target types: ${[...types].sort().join(", ")}`);
  }
  const [type] = types;
  if (type !== "binary" && type !== "multiclass") {
    throw new Error(`Cannot take class labels from ${type} values`);
  }
  return sortedUnion(ys);
}

/** Result of checking a pair of 1-D classification targets. */
export interface CheckedTargets {
  type: "binary" | "multiclass";
  /** Sorted distinct labels of y_true and y_pred together. */
  labels: Label[];
}

/** The error for two targets whose lengths differ. */
export function lengthMismatchError(nTrue: number, nPred: number, predName = "y_pred"): Error {
  return new Error(`y_true and ${predName} have different lengths: ${nTrue} and ${nPred}`);
}

function unsupportedTypeError(type: string): Error {
  const hint = type === "unknown" ? " (labels must be strings or numbers, with no missing values)" : "";
  return new Error(`Targets of type ${type} are not supported${hint}`);
}

/** Mirrors scikit-learn's `_check_targets` for 1-D inputs: both must be one binary/multiclass task. */
export function checkClassificationTargets(
  yTrue: ArrayLike<Label>,
  yPred: ArrayLike<Label>,
  needLabels = true,
): CheckedTargets {
  if (yTrue.length !== yPred.length) throw lengthMismatchError(yTrue.length, yPred.length);
  const typeTrue = typeOfTarget(yTrue, "y_true");
  const typePred = typeOfTarget(yPred, "y_pred");
  let type: TargetType = typeTrue;
  if (typeTrue !== typePred) {
    const pair = new Set([typeTrue, typePred]);
    if (!(pair.has("binary") && pair.has("multiclass"))) {
      throw new Error(
        `Classification metrics can't handle a mix of ${typeTrue} and ${typePred} targets`,
      );
    }
    type = "multiclass";
  }
  if (type !== "binary" && type !== "multiclass") throw unsupportedTypeError(type);
  // scikit-learn unions the two label sets only to tell binary from multiclass. A multiclass pair is
  // never unioned there, so string and number labels simply never match (accuracy scores them 0);
  // metrics that need the label list (F1, kappa, MCC) still refuse the mix when they build it.
  if (!needLabels && type === "multiclass") return { type, labels: [] };
  const labels = sortedUnion([yTrue, yPred]);
  if (type === "binary" && labels.length > 2) type = "multiclass";
  return { type, labels };
}

/** True when a classification input is given as a 2-D matrix rather than a 1-D label array. */
export function isMatrix(
  y: ArrayLike<Label> | readonly ArrayLike<number>[],
): y is readonly ArrayLike<number>[] {
  return y.length > 0 && typeof y[0] === "object" && y[0] !== null;
}

/** Shape and target type of a numeric 2-D matrix; throws for ragged rows or non-finite cells. */
export function typeOfMatrix(
  y: readonly ArrayLike<number>[],
  inputName?: string,
): { type: MatrixTargetType | TargetType; rows: number; cols: number } {
  const rows = y.length;
  const cols = rows > 0 ? y[0].length : 0;
  let nonIntegral = false;
  let firstNonFinite: number | undefined;
  const distinct = new Set<number>();
  for (let i = 0; i < rows; i++) {
    const row = y[i];
    if (row === null || typeof row !== "object" || row.length !== cols) {
      throw new Error(
        `${inputName ?? "Input"} must be a rectangular matrix: row ${i} has ${row?.length ?? 0} entries, row 0 has ${cols}`,
      );
    }
    for (let j = 0; j < cols; j++) {
      const v = row[j];
      if (typeof v !== "number") {
        throw new Error(`${inputName ?? "Input"} must hold numbers; found ${typeof v} at row ${i}`);
      }
      if (!isIntegralFloat(v)) {
        nonIntegral = true;
        if (!Number.isFinite(v) && (firstNonFinite === undefined || Number.isNaN(v))) firstNonFinite = v;
      }
      if (distinct.size < 3) distinct.add(v);
    }
  }
  if (rows === 0 || cols === 0) return { type: "unknown", rows, cols };
  if (cols === 1) {
    // A column vector is typed like the 1-D array it squeezes to.
    if (nonIntegral) {
      if (firstNonFinite !== undefined) throw nonFiniteError(firstNonFinite, inputName);
      return { type: "continuous", rows, cols };
    }
    return { type: distinct.size > 2 ? "multiclass" : "binary", rows, cols };
  }
  if (nonIntegral) {
    if (firstNonFinite !== undefined) throw nonFiniteError(firstNonFinite, inputName);
    return { type: "continuous-multioutput", rows, cols };
  }
  return { type: distinct.size > 2 ? "multiclass-multioutput" : "multilabel-indicator", rows, cols };
}

/** Flattens an n×1 matrix into the 1-D array numpy would squeeze it to. */
export function squeezeColumn(y: readonly ArrayLike<number>[]): number[] {
  return Array.from(y, (row) => row[0]);
}

/** Either two 1-D label arrays or two label-indicator matrices of the same shape. */
export type ResolvedTargets =
  | ({ kind: "labels"; yTrue: ArrayLike<Label>; yPred: ArrayLike<Label> } & CheckedTargets)
  | {
      kind: "multilabel";
      type: "multilabel-indicator";
      yTrue: readonly ArrayLike<number>[];
      yPred: readonly ArrayLike<number>[];
      rows: number;
      cols: number;
    };

/** `_check_targets` for inputs that may be 1-D labels or indicator matrices (multilabel); `needLabels` as for checkClassificationTargets. */
export function resolveTargets(
  yTrue: ArrayLike<Label> | readonly ArrayLike<number>[],
  yPred: ArrayLike<Label> | readonly ArrayLike<number>[],
  needLabels = true,
): ResolvedTargets {
  if (yTrue.length !== yPred.length) throw lengthMismatchError(yTrue.length, yPred.length);
  const trueIsMatrix = isMatrix(yTrue);
  const predIsMatrix = isMatrix(yPred);
  if (!trueIsMatrix && !predIsMatrix) {
    const a = yTrue as ArrayLike<Label>;
    const b = yPred as ArrayLike<Label>;
    return { kind: "labels", yTrue: a, yPred: b, ...checkClassificationTargets(a, b, needLabels) };
  }
  const infoTrue = trueIsMatrix ? typeOfMatrix(yTrue, "y_true") : undefined;
  const infoPred = predIsMatrix ? typeOfMatrix(yPred, "y_pred") : undefined;
  const squeezedTrue = infoTrue?.cols === 1 ? squeezeColumn(yTrue as readonly ArrayLike<number>[]) : undefined;
  const squeezedPred = infoPred?.cols === 1 ? squeezeColumn(yPred as readonly ArrayLike<number>[]) : undefined;
  if ((!trueIsMatrix || squeezedTrue) && (!predIsMatrix || squeezedPred)) {
    const a = squeezedTrue ?? (yTrue as ArrayLike<Label>);
    const b = squeezedPred ?? (yPred as ArrayLike<Label>);
    return { kind: "labels", yTrue: a, yPred: b, ...checkClassificationTargets(a, b, needLabels) };
  }
  const typeTrue = infoTrue ? infoTrue.type : typeOfTarget(yTrue as ArrayLike<Label>, "y_true");
  const typePred = infoPred ? infoPred.type : typeOfTarget(yPred as ArrayLike<Label>, "y_pred");
  if (typeTrue !== typePred) {
    throw new Error(
      `Classification metrics can't handle a mix of ${typeTrue} and ${typePred} targets`,
    );
  }
  if (typeTrue !== "multilabel-indicator") throw unsupportedTypeError(typeTrue);
  const a = infoTrue as { rows: number; cols: number };
  const b = infoPred as { rows: number; cols: number };
  if (a.cols !== b.cols) {
    throw new Error(
      `Multi-label indicator matrices have different numbers of columns: y_true has ${a.cols}, y_pred has ${b.cols}`,
    );
  }
  return {
    kind: "multilabel",
    type: "multilabel-indicator",
    yTrue: yTrue as readonly ArrayLike<number>[],
    yPred: yPred as readonly ArrayLike<number>[],
    rows: a.rows,
    cols: a.cols,
  };
}

