// Ranking with ties, as scipy.stats.rankdata(method="average") does it.

/** 1-based ranks with tied values sharing the mean of their positions; any NaN makes every rank NaN (scipy's propagate policy). */
export function rankAverage(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(values[i])) return ranks.fill(Number.NaN);
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => values[a] - values[b] || 0);
  let start = 0;
  while (start < n) {
    let end = start + 1;
    // -0 and +0 compare equal, so they tie, as they do in numpy.
    while (end < n && values[order[end]] === values[order[start]]) end++;
    // Positions start..end-1 (0-based) average to (start + end + 1) / 2 in 1-based terms.
    const r = 0.5 * (start + end + 1);
    for (let k = start; k < end; k++) ranks[order[k]] = r;
    start = end;
  }
  return ranks;
}
