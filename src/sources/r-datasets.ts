import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { PackageSource } from "../core/competition.js";
import { UserError } from "../core/errors.js";

/** A dataset of an R package installed from Debian (`r-cran-*`). */
export type RSource = Extract<PackageSource, { kind: "r" }>;

/** Where Debian's R installs packages (r-cran-* go to site-library), then a local library. */
const R_LIBRARIES = ["/usr/lib/R/site-library", "/usr/lib/R/library", "/usr/local/lib/R/site-library"];

/**
 * The export, run with `Rscript --vanilla`: the arguments come as trailing arguments (library,
 * data() topic, object, output file), never spliced into the program text.
 */
const EXPORT_PROGRAM = [
  "a <- commandArgs(trailingOnly = TRUE)",
  "e <- new.env()",
  "data(list = a[2], package = a[1], envir = e)",
  "if (!exists(a[3], envir = e, inherits = FALSE)) stop(sprintf('data(%s) of package %s does not define %s', a[2], a[1], a[3]))",
  "x <- as.data.frame(get(a[3], envir = e), stringsAsFactors = FALSE)",
  'write.csv(x, a[4], row.names = FALSE, na = "", fileEncoding = "UTF-8")',
].join("; ");

/** The installed folder of the source's R package, or a UserError naming the Debian package to install. */
export function rLibraryDir(s: RSource): string {
  const dir = R_LIBRARIES.map((lib) => path.join(lib, s.library)).find((d) => fs.existsSync(path.join(d, "DESCRIPTION")));
  if (dir) return dir;
  throw new UserError(
    `R package ${s.library} (dataset ${s.dataset}) is not installed: it ships in the Debian package ${s.package}. ` +
      `Install it with: sudo apt-get install r-base-core ${s.package}   (or: sudo bash scripts/setup-system.sh)`,
  );
}

/**
 * Write the dataset as a UTF-8 CSV (R's write.csv: a header, no row names, empty cells for NA,
 * character and factor cells quoted) to `out`. Deterministic for a given R and package version.
 */
export function exportRDataset(s: RSource, out: string): void {
  rLibraryDir(s);
  try {
    execFileSync("Rscript", ["--vanilla", "-e", EXPORT_PROGRAM, s.library, s.topic ?? s.dataset, s.dataset, out], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C.UTF-8", LANG: "C.UTF-8" },
      timeout: 300_000,
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === "ENOENT") {
      throw new UserError(`Rscript is not installed; the dataset ${s.library}::${s.dataset} needs Debian's R: sudo apt-get install r-base-core ${s.package}`);
    }
    const why = (err.stderr?.toString() ?? err.message).trim().split("\n").slice(-3).join(" ");
    throw new Error(`exporting ${s.library}::${s.dataset} with Rscript failed: ${why}`);
  }
  if (!fs.existsSync(out)) throw new Error(`exporting ${s.library}::${s.dataset} with Rscript wrote no file`);
}
