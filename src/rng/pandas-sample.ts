/**
 * pandas 1.5's `DataFrame.sample` reduced to the positional rows it takes, so preparers that
 * upstream wrote as `df.sample(frac=..., random_state=...)` pick the same rows here.
 */
import { RandomState } from "./random-state.js";

/** Options of `DataFrame.sample` without weights; `randomState` is an int seed or a live RandomState. */
export interface SampleOptions {
  n?: number;
  frac?: number;
  randomState: number | RandomState;
  replace?: boolean;
}

/** Python's round(x) to an int: halves go to the even neighbour, which decides frac * n at .5. */
export function pythonRoundHalfEven(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** pandas' `process_sampling_size` plus `round(frac * n)`: how many rows `sample` takes. */
export function sampleSize(nRows: number, n: number | undefined, frac: number | undefined, replace: boolean): number {
  if (n === undefined && frac === undefined) return 1;
  if (n !== undefined && frac !== undefined) throw new RangeError("Please enter a value for `frac` OR `n`, not both");
  if (n !== undefined) {
    if (n < 0) throw new RangeError("A negative number of rows requested. Please provide `n` >= 0.");
    if (n % 1 !== 0) throw new RangeError("Only integers accepted as `n` values");
    return n;
  }
  if (frac! > 1 && !replace) {
    throw new RangeError("Replace has to be set to `True` when upsampling the population `frac` > 1.");
  }
  if (frac! < 0) throw new RangeError("A negative number of rows requested. Please provide `frac` >= 0.");
  return pythonRoundHalfEven(frac! * nRows);
}

/** The positional row indices `df.sample(n=..., frac=..., random_state=..., replace=...)` returns, in order. */
export function sampleIndices(nRows: number, options: SampleOptions): number[] {
  const { n, frac, randomState, replace = false } = options;
  const size = sampleSize(nRows, n, frac, replace);
  const rs = randomState instanceof RandomState ? randomState : new RandomState(randomState);
  // pandas' sample() is rs.choice(obj_len, size, replace); without p that is randint or permutation[:size].
  return rs.choice(nRows, size, replace);
}
