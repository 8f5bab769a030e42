import { CATALOG, CATALOG_SPLITS } from "./catalog.js";
import { FOLDER_COMPETITIONS } from "./folders.js";

/** Ids of the catalogued upstream competitions of one tier, sorted as upstream's split files are. */
const tier = (complexity: "low" | "medium" | "high"): readonly string[] =>
  CATALOG.filter((e) => e.complexity === complexity && !e.dev).map((e) => e.id);

/** Upstream MLE-bench's competition splits (experiments/splits/*.txt at the pinned commit, via catalog.json). */
export const LOW = tier("low");
export const MEDIUM = tier("medium");
export const HIGH = tier("high");
export const DEV: readonly string[] = CATALOG.filter((e) => e.dev).map((e) => e.id);

/** Upstream's 30-competition subset (experiments/splits/systemcard.txt), in upstream's order. */
export const SYSTEMCARD: readonly string[] = CATALOG_SPLITS.systemcard ?? [];

/** Offline competitions, each with what its split membership depends on. */
const offlineFolders = FOLDER_COMPETITIONS.flatMap((c) => (c.offline ? [{ id: c.id, order: c.offline.order, lite: c.offline.lite === true, complexity: c.complexity }] : []))
  .sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/**
 * The embedded offline benchmark: every competition folder with an `offline` spec, in the order
 * their `offline.order` gives (the order `mlebench demo` runs and shows them), ties by id.
 */
export const OFFLINE: readonly string[] = offlineFolders.map((c) => c.id);

/** The offline competitions marked `lite`: the quick ones `mlebench demo` runs by default. */
export const OFFLINE_LITE: readonly string[] = offlineFolders.filter((c) => c.lite).map((c) => c.id);

/** The offline competitions of one complexity tier. */
const offlineTier = (complexity: "low" | "medium" | "high"): readonly string[] => offlineFolders.filter((c) => c.complexity === complexity).map((c) => c.id);

/**
 * Named splits: the complexity tiers, their union, the lite alias, the dev set, upstream's
 * systemcard subset, and the offline
 * benchmark with its lite subset and its own tiers.
 */
export const SPLITS: Record<string, readonly string[]> = {
  low: LOW,
  lite: LOW,
  medium: MEDIUM,
  high: HIGH,
  split75: [...LOW, ...MEDIUM, ...HIGH],
  dev: DEV,
  systemcard: SYSTEMCARD,
  offline: OFFLINE,
  "offline-lite": OFFLINE_LITE,
  "offline-low": offlineTier("low"),
  "offline-medium": offlineTier("medium"),
  "offline-high": offlineTier("high"),
};
