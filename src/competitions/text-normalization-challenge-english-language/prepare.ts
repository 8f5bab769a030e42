import type { UpstreamPrepareContext } from "../../core/competition.js";
import { prepareTextNormalization } from "../_shared/normalization-split.js";

/**
 * Upstream's split: 10% of the sentences of Kaggle's en_train.csv (random_state 0) become the
 * test set; outputs are quoted with csv.QUOTE_NONNUMERIC and the public ones zipped one by one.
 */
export function prepare(ctx: UpstreamPrepareContext): Promise<void> {
  return prepareTextNormalization(ctx, "en");
}
