import type { UpstreamSpec } from "../core/competition.js";
import { FOLDER_PREPARERS } from "./folder-loaders.js";

/**
 * Ported upstream preparers by competition id (the upstream folders with a prepare.ts, found by
 * folder-loaders.ts), each imported when it runs. Kept apart from the graders so a competition can be
 * prepared before its grader exists (and the other way round). Each module exports `prepare` and,
 * where some output cannot match upstream's bytes, `unverifiable` (see UpstreamSpec).
 */
export const PREPARERS: ReadonlyMap<string, () => Promise<UpstreamSpec>> = FOLDER_PREPARERS;

/** The loader of an upstream competition's ported preparer, else undefined. */
export function upstreamSpec(id: string): (() => Promise<UpstreamSpec>) | undefined {
  return PREPARERS.get(id);
}
