import type { UpstreamPrepareContext } from "../../core/competition.js";
import { prepareHerbarium } from "../_shared/herbarium-folders.js";

/**
 * Upstream's split of Kaggle's labelled herbarium sheets in nybg2020/train (see
 * herbarium-folders.ts). The metadata is read as Latin-1, as upstream does, because Kaggle's
 * file is not valid UTF-8; its non-ASCII bytes come out as \u00XX escapes.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  prepareHerbarium(ctx, { root: "nybg2020", encoding: "latin-1", trainOnlyList: "regions" });
}
