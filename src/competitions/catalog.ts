import fs from "node:fs";
import type { Competition, GraderModule } from "../core/competition.js";

/**
 * One upstream MLE-bench competition as its config.yaml and the split lists describe it: an entry
 * of catalog.json, which scripts/upstream/catalog.mjs generates from upstream at the pinned commit.
 */
export interface CatalogEntry {
  id: string;
  name: string;
  /** Upstream's competition_type. */
  type: "simple" | "code";
  awardsMedals: boolean;
  /** Answers file, relative to `<id>/prepared/private`. */
  answers: string;
  /** Relative to `<id>/prepared/public`; a few upstream ones sit in private/ and read "../private/…". */
  sampleSubmission: string;
  /** Upstream grader name, e.g. "accuracy" (misspellings included: "levenhstein-distance"). */
  grader: string;
  /** Relative to `<id>/prepared/private`; upstream uses it for sanity checks, not grading. */
  goldSubmission: string | null;
  /** Complexity tier (experiments/splits/<tier>.txt); null for dev competitions, which sit outside the 75. */
  complexity: "low" | "medium" | "high" | null;
  dev: boolean;
  /** As upstream's README states it (Lite table only); null where upstream states none. */
  category: string | null;
}

interface CatalogFile {
  upstream: { repository: string; commit: string };
  competitions: CatalogEntry[];
  /** Upstream's named subsets beside the tiers (experiments/splits/<name>.txt), each in its file's order. */
  splits: Record<string, string[]>;
}

const FILE = new URL("./catalog.json", import.meta.url);

function loadCatalog(): CatalogFile {
  const data = JSON.parse(fs.readFileSync(FILE, "utf8")) as Partial<CatalogFile>;
  // The file is generated, so a bad shape means a broken install or a hand edit, not user input.
  if (!data.upstream?.commit || !Array.isArray(data.competitions) || typeof data.splits !== "object" || data.splits === null) {
    throw new Error(`${FILE.pathname}: not a competition catalog (expected "upstream", "competitions" and "splits"); rerun scripts/upstream/catalog.mjs`);
  }
  return data as CatalogFile;
}

const DATA = loadCatalog();

/** The upstream repository and commit the catalog was generated from. */
export const CATALOG_SOURCE: Readonly<CatalogFile["upstream"]> = DATA.upstream;

/** Every upstream competition directory, sorted by id. */
export const CATALOG: readonly CatalogEntry[] = DATA.competitions;

/** Upstream's named subsets (e.g. "systemcard"), each in upstream's order. */
export const CATALOG_SPLITS: Readonly<Record<string, readonly string[]>> = DATA.splits;

const BY_ID: ReadonlyMap<string, CatalogEntry> = new Map(CATALOG.map((e) => [e.id, e]));

/** The catalogued upstream competition with this id, if upstream has one. */
export function catalogEntry(id: string): CatalogEntry | undefined {
  return BY_ID.get(id);
}

/** What an upstream competition's folder adds to its catalog entry: the grader, and any field upstream leaves unstated. */
export interface UpstreamParts {
  /** Imports the folder's grade.ts. */
  grader(): Promise<GraderModule>;
  /** Where upstream's README states no category. */
  category?: string;
  answersFields?: readonly string[];
}

/** An upstream competition: its catalog entry (names, files, metric, tier) joined with its folder's parts. */
export function upstreamCompetition(id: string, parts: UpstreamParts): Competition {
  const e = catalogEntry(id);
  if (!e) throw new Error(`src/competitions/${id}: upstream has no competition "${id}" (catalog.json at ${CATALOG_SOURCE.commit})`);
  if (parts.category !== undefined && e.category !== null) {
    throw new Error(`src/competitions/${id}: category "${parts.category}" restates upstream's "${e.category}"`);
  }
  const category = parts.category ?? e.category ?? undefined;
  return {
    id,
    name: e.name,
    type: e.type,
    ...(e.complexity ? { complexity: e.complexity } : {}),
    ...(category ? { category } : {}),
    metric: e.grader,
    answers: e.answers,
    ...(parts.answersFields ? { answersFields: parts.answersFields } : {}),
    sampleSubmission: e.sampleSubmission,
    grader: parts.grader,
  };
}
