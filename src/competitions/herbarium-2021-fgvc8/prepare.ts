import type { UpstreamPrepareContext } from "../../core/competition.js";
import { prepareHerbarium } from "../_shared/herbarium-folders.js";

/**
 * Upstream's split of Kaggle's labelled herbarium sheets in train/ (UTF-8 metadata), done as for
 * Herbarium 2020 (see ../_shared/herbarium-folders.ts); the test metadata drops the
 * categories and institutions lists.
 */
export function prepare(ctx: UpstreamPrepareContext): void {
  prepareHerbarium(ctx, { root: "", encoding: "utf-8", trainOnlyList: "institutions" });
}
