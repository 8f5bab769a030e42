import { textSortOrder } from "../../grading/sort-text.js";
import { numpyQuickArgsort } from "../../pycompat/numpy-argsort.js";

/**
 * The row order pandas' default `sort_values` gives a text column: missing values last in file
 * order, the rest by numpy's unstable quicksort. Repeated comments therefore come out in
 * numpy's order, which decides which answer row each repeated submission row is scored against.
 */
export function pandasTextSortOrder(values: readonly (string | null)[]): Uint32Array {
  const present: number[] = [];
  const missing: number[] = [];
  values.forEach((v, i) => (v === null ? missing : present).push(i));
  // numpy's sort only asks "less than?", so dense ranks (equal texts, equal ranks) stand in for
  // the texts and give the very same permutation as sorting the Python strings.
  const sorted = textSortOrder(present.map((i) => values[i]));
  const ranks = new Float64Array(present.length);
  let rank = 0;
  for (let k = 0; k < sorted.length; k++) {
    if (k > 0 && values[present[sorted[k]]] !== values[present[sorted[k - 1]]]) rank++;
    ranks[sorted[k]] = rank;
  }
  const out = new Uint32Array(values.length);
  numpyQuickArgsort(ranks).forEach((p, k) => (out[k] = present[p]));
  out.set(missing, present.length);
  return out;
}
