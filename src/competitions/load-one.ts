import type { Competition, GradableCompetition } from "../core/competition.js";
import { FOLDER_INDEXES } from "./folder-loaders.js";
import { upstreamSpec } from "./preparers.js";

/**
 * The competition with this id, grader loaded, importing its own folder alone: what grading one
 * submission needs, without the registry's import of every folder (about 70 ms and 12 MB at
 * start-up). The same definition as the registry's entry; an unknown id gets the registry's
 * message with its suggestions.
 */
export async function loadOneCompetition(id: string): Promise<GradableCompetition> {
  const index = FOLDER_INDEXES.get(id);
  if (index === undefined) return (await import("./registry.js")).loadCompetition(id);
  const { competition } = await index();
  const c: Competition = { ...competition, upstream: upstreamSpec(id) };
  const { grade } = await c.grader();
  return { ...c, grade };
}
