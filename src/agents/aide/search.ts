/** AIDE's search policy: draft first, then either debug a broken leaf or improve the best solution. */
import { PythonRandom } from "../../rng/python-random.js";
import type { Journal, JournalNode } from "./journal.js";

/** Knobs of the tree search. */
export interface SearchConfig {
  /** Drafts written before any debugging or improving. */
  numDrafts: number;
  /** Chance of debugging a broken leaf at each step once drafting is done. */
  debugProb: number;
  /** Longest chain of debug steps still worth extending. */
  maxDebugDepth: number;
}

/** Defaults of the reference implementation. */
export const DEFAULT_SEARCH: SearchConfig = { numDrafts: 5, debugProb: 0.5, maxDebugDepth: 3 };

/** The random choices the policy makes. */
export interface SearchRng {
  /** Uniform in [0, 1). */
  random(): number;
  /** An index in [0, n). */
  below(n: number): number;
}

/** Python's `random` seeded with the run's seed, so a run's choices can be replayed. */
export function seededRng(seed: number): SearchRng {
  const r = new PythonRandom(seed);
  return { random: () => r.random(), below: (n) => r.randbelow(n) };
}

/** What to do next: write a new draft, or derive a child from a node. */
export type Decision = { action: "draft" } | { action: "debug"; parent: JournalNode } | { action: "improve"; parent: JournalNode };

/** Choose the next step from the journal. */
export function nextStep(journal: Journal, config: SearchConfig, rng: SearchRng): Decision {
  if (journal.drafts().length < config.numDrafts) return { action: "draft" };
  // The coin is tossed even when there is nothing to debug, so the random stream stays aligned with the reference.
  if (rng.random() < config.debugProb) {
    const candidates = journal.buggy().filter((n) => journal.isLeaf(n.id) && journal.debugDepth(n.id) <= config.maxDebugDepth);
    if (candidates.length > 0) return { action: "debug", parent: candidates[rng.below(candidates.length)] };
  }
  const best = journal.best();
  return best ? { action: "improve", parent: best } : { action: "draft" };
}
