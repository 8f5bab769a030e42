// Mean columnwise root mean squared error, as the Feedback Prize (ELL) competition scores it.
import { rmse } from "./regression.js";
import { numpySum } from "./sum.js";

/** MCRMSE: the mean over columns of each column's RMSE (sklearn mean_squared_error(squared=False), then np.mean). */
export function mcrmse(yTrue: readonly ArrayLike<number>[], yPred: readonly ArrayLike<number>[]): number {
  if (yTrue.length !== yPred.length) throw new Error(`mcrmse: ${yTrue.length} true columns but ${yPred.length} predicted columns`);
  if (yTrue.length === 0) throw new Error("mcrmse: no columns to score");
  const perColumn = Float64Array.from(yTrue, (col, j) => rmse(col, yPred[j]));
  return numpySum(perColumn) / perColumn.length;
}
