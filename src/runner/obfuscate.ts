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

/** The obfuscated description's path, refusing clearly where the competition has none. */
export function requireObfuscatedDescription(c: Competition, dataDir: string): string {
  const file = obfuscatedDescriptionPath(c, dataDir);
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (st?.isFile() && st.size > 0) return file;
  const how = c.offline
    ? "this offline competition has none yet"
    : `it comes with upstream's metadata; fetch it with: mlebench prepare -c ${c.id}`;
  throw new UserError(`--obfuscate: competition ${c.id} has no obfuscated description (${file}; ${how})`);
}
