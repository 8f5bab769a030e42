import fs from "node:fs";
import type { Competition, GradableCompetition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { FOLDER_COMPETITIONS } from "./folders.js";
import { upstreamSpec } from "./preparers.js";
import { SPLITS } from "./splits.js";

/** Every competition with a grader, by id: the folders of src/competitions/ (see folders.ts). */
export const COMPETITIONS: ReadonlyMap<string, Competition> = new Map(
  FOLDER_COMPETITIONS.map((c) => [c.id, { ...c, upstream: upstreamSpec(c.id) }]),
);

/** The competition with this id, or a UserError listing close matches. */
export function getCompetition(id: string): Competition {
  const found = COMPETITIONS.get(id);
  if (found) return found;
  const known = [...COMPETITIONS.keys()];
  const close = known.filter((k) => k.includes(id) || id.includes(k.split("-")[0]));
  const suggestion = close.length > 0 ? ` Did you mean: ${close.join(", ")}?` : "";
  throw new UserError(`Unknown competition "${id}".${suggestion} Run "mlebench list" to see the competitions available.`);
}

const loaded = new Map<string, Promise<GradableCompetition>>();

/** The competition with its grader imported (once per process for the registry's own objects); what grading takes. */
export function loadGrader(c: Competition): Promise<GradableCompetition> {
  if ("grade" in c && typeof c.grade === "function") return Promise.resolve(c as GradableCompetition);
  const load = () => c.grader().then((m): GradableCompetition => ({ ...c, grade: m.grade }));
  // A variant built from a registry entry (tests do this) gets its own object, not the cached one.
  if (COMPETITIONS.get(c.id) !== c) return load();
  let p = loaded.get(c.id);
  if (!p) {
    p = load();
    loaded.set(c.id, p);
  }
  return p;
}

/** The competition with this id, grader loaded (UserError for an unknown id, as getCompetition). */
export function loadCompetition(id: string): Promise<GradableCompetition> {
  return loadGrader(getCompetition(id));
}

/** Competitions of a named split that have graders here, in split order. */
export function competitionsInSplit(split: string): Competition[] {
  const ids = SPLITS[split];
  if (!ids) {
    throw new UserError(`Unknown split "${split}"; known splits: ${Object.keys(SPLITS).join(", ")}.`);
  }
  return ids.flatMap((id) => {
    const c = COMPETITIONS.get(id);
    return c ? [c] : [];
  });
}

/**
 * Competition ids listed in a text file, one per line (upstream's competition-set files); blank
 * lines and # comments are skipped, and each id keeps its line number for error messages.
 */
export function readCompetitionList(file: string, flag: string): { id: string; line: number }[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserError(`${flag}: cannot read ${file}: ${(e as Error).message}`);
  }
  const ids = text
    .split(/\r?\n/)
    .map((l, i) => ({ id: l.trim(), line: i + 1 }))
    .filter((x) => x.id && !x.id.startsWith("#"));
  if (ids.length === 0) throw new UserError(`${flag}: ${file} lists no competitions`);
  return ids;
}
