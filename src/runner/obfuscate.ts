import fs from "node:fs";
import path from "node:path";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { upstreamCacheDir } from "../sources/upstream/fetch.js";

/** The file name upstream MLE-bench gives a competition's description stripped of what names its source. */
export const OBFUSCATED_DESCRIPTION = "description_obfuscated.md";

/**
 * Where a competition's obfuscated description is: in its own folder for the offline benchmark,
 * among the upstream metadata fetched with it otherwise (upstream ships one per competition).
 */
export function obfuscatedDescriptionPath(c: Competition, dataDir: string): string {
  if (c.offline) return path.join(c.offline.assets, OBFUSCATED_DESCRIPTION);
  return path.join(upstreamCacheDir(dataDir, c.id), OBFUSCATED_DESCRIPTION);
}

/** Why --obfuscate cannot be had with --sandbox local. */
export const OBFUSCATE_LOCAL = "--obfuscate needs a sandbox that can lay the obfuscated description over /home/data/description.md (bwrap or docker), not --sandbox local";

/** The obfuscated description's path, refusing clearly where the competition has none. */
export function requireObfuscatedDescription(c: Competition, dataDir: string): string {
  const file = obfuscatedDescriptionPath(c, dataDir);
  let ok = false;
  try {
    ok = fs.statSync(file).isFile() && fs.statSync(file).size > 0;
  } catch {
    // missing
  }
  if (ok) return file;
  const how = c.offline
    ? "this offline competition has none yet"
    : `it comes with upstream's metadata; fetch it with: mlebench prepare -c ${c.id}`;
  throw new UserError(`--obfuscate: competition ${c.id} has no obfuscated description (${file}; ${how})`);
}
