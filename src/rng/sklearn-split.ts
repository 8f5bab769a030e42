/**
 * scikit-learn 1.2's row splitters (`train_test_split`, `ShuffleSplit`, `StratifiedShuffleSplit`,
 * `KFold`) reduced to the indices they produce, draw for draw on numpy's legacy RandomState,
 * so preparers reproduce upstream MLE-bench's train/test files row for row.
 *
 * Sizes follow sklearn's int/float distinction; JS cannot tell 1 from 1.0, so an integral
 * number is a row count and a fractional one is a proportion.
 */
import { RandomState } from "./random-state.js";

/** A seed as sklearn's `random_state` takes it: an int, or a RandomState whose stream continues. */
export type SplitRandomState = number | RandomState;

/** Train and test row indices, in the order sklearn returns them. */
export interface SplitIndices {
  train: number[];
  test: number[];
}

/** Options of `train_test_split`, with `stratify` holding one label per row. */
export interface TrainTestSplitOptions {
  testSize?: number;
  trainSize?: number;
  randomState?: SplitRandomState;
  shuffle?: boolean;
  stratify?: readonly (string | number)[];
}

// sklearn's check_random_state, minus None (the global numpy state has no meaning here).
function checkRandomState(rs: SplitRandomState | undefined): RandomState {
  if (rs === undefined) throw new TypeError("randomState is required: sklearn would draw from numpy's global state");
  return rs instanceof RandomState ? rs : new RandomState(rs);
}

const isIntSize = (v: number): boolean => Number.isInteger(v);

function describe(v: number | undefined): string {
  return v === undefined ? "None" : String(v);
}

/** sklearn's `_validate_shuffle_split`: the (nTrain, nTest) row counts, with its error rules. */
export function validateShuffleSplit(
  nSamples: number,
  testSize: number | undefined,
  trainSize: number | undefined,
  defaultTestSize = 0.25,
): { nTrain: number; nTest: number } {
  if (testSize === undefined && trainSize === undefined) testSize = defaultTestSize;
  const bad = (v: number | undefined): boolean =>
    v !== undefined && (isIntSize(v) ? v >= nSamples || v <= 0 : v <= 0 || v >= 1 || Number.isNaN(v));
  if (bad(testSize)) {
    throw new RangeError(
      `test_size=${testSize} should be either positive and smaller than the number of samples ${nSamples} or a float in the (0, 1) range`,
    );
  }
  if (bad(trainSize)) {
    throw new RangeError(
      `train_size=${trainSize} should be either positive and smaller than the number of samples ${nSamples} or a float in the (0, 1) range`,
    );
  }
  if (testSize !== undefined && trainSize !== undefined && !isIntSize(testSize) && !isIntSize(trainSize)) {
    if (trainSize + testSize > 1) {
      throw new RangeError(
        `The sum of test_size and train_size = ${trainSize + testSize}, should be in the (0, 1) range. Reduce test_size and/or train_size.`,
      );
    }
  }
  let nTest = testSize === undefined ? NaN : isIntSize(testSize) ? testSize : Math.ceil(testSize * nSamples);
  let nTrain = trainSize === undefined ? NaN : isIntSize(trainSize) ? trainSize : Math.floor(trainSize * nSamples);
  if (trainSize === undefined) nTrain = nSamples - nTest;
  else if (testSize === undefined) nTest = nSamples - nTrain;
  if (nTrain + nTest > nSamples) {
    throw new RangeError(
      `The sum of train_size and test_size = ${nTrain + nTest}, should be smaller than the number of samples ${nSamples}. Reduce test_size and/or train_size.`,
    );
  }
  if (nTrain === 0) {
    throw new RangeError(
      `With n_samples=${nSamples}, test_size=${describe(testSize)} and train_size=${describe(trainSize)}, the resulting train set will be empty. Adjust any of the aforementioned parameters.`,
    );
  }
  return { nTrain, nTest };
}

/** One split of `ShuffleSplit`: test is the head of a permutation, train the slice after it. */
export function shuffleSplitIndices(nSamples: number, nTrain: number, nTest: number, rng: RandomState): SplitIndices {
  const permutation = rng.permutation(nSamples);
  return { test: permutation.slice(0, nTest), train: permutation.slice(nTest, nTest + nTrain) };
}

// numpy's unicode ordering is by code point; JS's default `<` compares UTF-16 units instead.
function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (ca !== cb) return ca - cb;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  return a.length - i - (b.length - j);
}

/** `np.unique(y, return_inverse=True)`; mixed numbers and strings sort as strings, since numpy coerces them to str. */
export function uniqueInverse(labels: readonly (string | number)[]): { classes: (string | number)[]; inverse: number[] } {
  const allNumbers = labels.every((v) => typeof v === "number");
  const keys: (string | number)[] = allNumbers ? labels.slice() : labels.map((v) => String(v));
  const distinct = [...new Set(keys)];
  if (allNumbers) {
    // numpy sorts NaN last.
    (distinct as number[]).sort((a, b) => (Number.isNaN(a) ? 1 : Number.isNaN(b) ? -1 : a - b));
  } else (distinct as string[]).sort(compareCodePoints);
  const pos = new Map<string | number, number>(distinct.map((c, i) => [c, i]));
  return { classes: distinct, inverse: keys.map((k) => pos.get(k)!) };
}

/** sklearn's `_approximate_mode`: floored shares, leftovers to the largest remainders, ties broken by `rng.choice`. */
export function approximateMode(classCounts: readonly number[], nDraws: number, rng: RandomState): number[] {
  let total = 0;
  for (const c of classCounts) total += c;
  const continuous = classCounts.map((c) => (c / total) * nDraws);
  const floored = continuous.map((c) => Math.floor(c));
  let needToAdd = nDraws - floored.reduce((a, b) => a + b, 0);
  if (needToAdd > 0) {
    const remainder = continuous.map((c, i) => c - floored[i]);
    const values = [...new Set(remainder)].sort((a, b) => b - a);
    for (const value of values) {
      const inds: number[] = [];
      remainder.forEach((r, i) => {
        if (r === value) inds.push(i);
      });
      const addNow = Math.min(inds.length, needToAdd);
      // sklearn calls choice even when every tied class gets one, so the draws happen regardless.
      for (const k of rng.choice(inds, addNow, false)) floored[k] += 1;
      needToAdd -= addNow;
      if (needToAdd === 0) break;
    }
  }
  return floored;
}

/** One split of `StratifiedShuffleSplit` on already validated sizes, with sklearn's errors. */
export function stratifiedShuffleSplitIndices(
  labels: readonly (string | number)[],
  nTrain: number,
  nTest: number,
  rng: RandomState,
): SplitIndices {
  const { classes, inverse } = uniqueInverse(labels);
  const nClasses = classes.length;
  const classCounts = new Array<number>(nClasses).fill(0);
  for (const k of inverse) classCounts[k]++;
  if (Math.min(...classCounts) < 2) {
    throw new RangeError(
      "The least populated class in y has only 1 member, which is too few. The minimum number of groups for any class cannot be less than 2.",
    );
  }
  if (nTrain < nClasses) {
    throw new RangeError(`The train_size = ${nTrain} should be greater or equal to the number of classes = ${nClasses}`);
  }
  if (nTest < nClasses) {
    throw new RangeError(`The test_size = ${nTest} should be greater or equal to the number of classes = ${nClasses}`);
  }
  // A stable argsort grouped by class: each class's rows in ascending order.
  const classIndices: number[][] = classes.map(() => []);
  inverse.forEach((k, row) => classIndices[k].push(row));

  const nI = approximateMode(classCounts, nTrain, rng);
  const tI = approximateMode(
    classCounts.map((c, i) => c - nI[i]),
    nTest,
    rng,
  );
  const train: number[] = [];
  const test: number[] = [];
  for (let i = 0; i < nClasses; i++) {
    const perm = rng.permutation(classCounts[i]).map((p) => classIndices[i][p]);
    train.push(...perm.slice(0, nI[i]));
    test.push(...perm.slice(nI[i], nI[i] + tI[i]));
  }
  return { train: rng.permutation(train), test: rng.permutation(test) };
}

/** The row indices `sklearn.model_selection.train_test_split` (1.2) puts in train and in test. */
export function trainTestSplitIndices(nSamples: number, options: TrainTestSplitOptions = {}): SplitIndices {
  const { testSize, trainSize, randomState, shuffle = true, stratify } = options;
  if (!Number.isSafeInteger(nSamples) || nSamples < 0) throw new RangeError(`nSamples must be a count, got ${nSamples}`);
  if (stratify !== undefined && stratify.length !== nSamples) {
    throw new RangeError(`Found input variables with inconsistent numbers of samples: [${nSamples}, ${stratify.length}]`);
  }
  const { nTrain, nTest } = validateShuffleSplit(nSamples, testSize, trainSize, 0.25);
  if (!shuffle) {
    if (stratify !== undefined) throw new RangeError("Stratified train/test split is not implemented for shuffle=False");
    return {
      train: Array.from({ length: nTrain }, (_, i) => i),
      test: Array.from({ length: nTest }, (_, i) => nTrain + i),
    };
  }
  // train_test_split hands the CV class integer sizes, which sklearn validates once more.
  validateShuffleSplit(nSamples, nTest, nTrain);
  const rng = checkRandomState(randomState);
  return stratify === undefined
    ? shuffleSplitIndices(nSamples, nTrain, nTest, rng)
    : stratifiedShuffleSplitIndices(stratify, nTrain, nTest, rng);
}

/** `KFold(nSplits, shuffle, randomState).split`: each fold, train and test both ascending as sklearn's masks give them. */
export function kFoldIndices(
  nSamples: number,
  nSplits = 5,
  shuffle = false,
  randomState?: SplitRandomState,
): SplitIndices[] {
  if (!Number.isInteger(nSplits)) throw new TypeError(`The number of folds must be of Integral type. ${nSplits} was passed.`);
  if (nSplits <= 1) {
    throw new RangeError(
      `k-fold cross-validation requires at least one train/test split by setting n_splits=2 or more, got n_splits=${nSplits}.`,
    );
  }
  if (!shuffle && randomState !== undefined) {
    throw new RangeError(
      "Setting a random_state has no effect since shuffle is False. You should leave random_state to its default (None), or set shuffle=True.",
    );
  }
  if (nSplits > nSamples) {
    throw new RangeError(
      `Cannot have number of splits n_splits=${nSplits} greater than the number of samples: n_samples=${nSamples}.`,
    );
  }
  const indices = Array.from({ length: nSamples }, (_, i) => i);
  if (shuffle) checkRandomState(randomState).shuffle(indices);
  const folds: SplitIndices[] = [];
  let current = 0;
  for (let f = 0; f < nSplits; f++) {
    const size = Math.floor(nSamples / nSplits) + (f < nSamples % nSplits ? 1 : 0);
    const inTest = new Uint8Array(nSamples);
    for (const i of indices.slice(current, current + size)) inTest[i] = 1;
    const train: number[] = [];
    const test: number[] = [];
    for (let i = 0; i < nSamples; i++) (inTest[i] ? test : train).push(i);
    folds.push({ train, test });
    current += size;
  }
  return folds;
}
