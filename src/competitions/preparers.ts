import type { UpstreamSpec } from "../core/competition.js";
import { prepare as aptos } from "./aptos2019-blindness-detection/prepare.js";
import { prepare as spaceshipTitanic } from "./spaceship-titanic/prepare.js";
import { prepare as spooky } from "./spooky-author-identification/prepare.js";
import { prepare as tpsDec2021 } from "./tabular-playground-series-dec-2021/prepare.js";

/**
 * Ported upstream preparers by competition id. Kept apart from the graders so a competition can be
 * prepared before its grader exists (and the other way round).
 */
export const PREPARERS: ReadonlyMap<string, UpstreamSpec["prepare"]> = new Map([
  ["aptos2019-blindness-detection", aptos],
  ["spaceship-titanic", spaceshipTitanic],
  ["spooky-author-identification", spooky],
  ["tabular-playground-series-dec-2021", tpsDec2021],
]);

/** The upstream spec of a competition whose preparer is ported, else undefined. */
export function upstreamSpec(id: string): UpstreamSpec | undefined {
  const prepare = PREPARERS.get(id);
  return prepare ? { prepare } : undefined;
}
