import { precisionRecallFscore, type ClassificationInput, type PrfOptions } from "./fbeta.js";

/** Precision tp / (tp + fp), as scikit-learn's `precision_score`. */
export function precision(yTrue: ClassificationInput, yPred: ClassificationInput, options: PrfOptions = {}): number {
  return precisionRecallFscore(yTrue, yPred, 1, options).precision;
}

/** Recall tp / (tp + fn), as scikit-learn's `recall_score`. */
export function recall(yTrue: ClassificationInput, yPred: ClassificationInput, options: PrfOptions = {}): number {
  return precisionRecallFscore(yTrue, yPred, 1, options).recall;
}
