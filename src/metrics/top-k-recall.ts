// Recall among the k highest-scored rows: the share of all positives a campaign reaches when it
// contacts only the k rows a model ranks first (the CoIL 2000 challenge's criterion).

/**
 * The expected share of positives among the k highest-scored rows, over every order of tied
 * scores: rows scoring above the k-th highest score are all selected; of the rows tied with it,
 * the remaining places are filled at random, so each tied positive counts with the probability
 * (places left) / (rows tied). The result does not depend on the rows' order, and a constant
 * score gives exactly k / n. Labels are 1 (positive) or 0; scores must be finite numbers.
 */
export function topKRecall(yTrue: ArrayLike<number>, yScore: ArrayLike<number>, k: number): number {
  const n = yTrue.length;
  if (yScore.length !== n) throw new Error(`top-k recall: ${n} labels but ${yScore.length} scores`);
  if (!Number.isInteger(k) || k < 1 || k > n) throw new Error(`top-k recall: k must be an integer from 1 to ${n} (got ${k})`);
  let positives = 0;
  for (let i = 0; i < n; i++) {
    const y = yTrue[i];
    if (y !== 0 && y !== 1) throw new Error(`top-k recall: labels must be 0 or 1; found ${y} at index ${i}`);
    if (!Number.isFinite(yScore[i])) throw new Error(`top-k recall: scores must be finite numbers; found ${yScore[i]} at index ${i}`);
    positives += y;
  }
  if (positives === 0) throw new Error("top-k recall: there are no positive labels, so recall is undefined");
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => yScore[b] - yScore[a]);
  const cut = yScore[order[k - 1]];
  let above = 0;
  let abovePositives = 0;
  let tied = 0;
  let tiedPositives = 0;
  for (let i = 0; i < n; i++) {
    const s = yScore[i];
    if (s > cut) {
      above++;
      abovePositives += yTrue[i];
    } else if (s === cut) {
      tied++;
      tiedPositives += yTrue[i];
    }
  }
  return (abovePositives + ((k - above) * tiedPositives) / tied) / positives;
}
