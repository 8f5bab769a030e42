import type { Command } from "commander";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { resolveDataDir } from "../core/paths.js";
import { COMPETITIONS, competitionsInSplit, getCompetition } from "../competitions/registry.js";
import { prepareCompetition, type PrepareResult } from "../prepare/prepare.js";
import { progressBar } from "./progress.js";
import { EXIT, action, dataDirOption } from "./common.js";

interface PrepareFlags {
  competition?: string[];
  split?: string;
  all?: boolean;
  dataDir?: string;
  force?: boolean;
  updateChecksums?: boolean;
  json?: boolean;
}

/** `mlebench prepare`: build public/private data for competitions into the data dir. */
export function register(program: Command): void {
  program
    .command("prepare")
    .summary("prepare competition data (public/private splits, leaderboard) in the data dir")
    .description(
      "Prepare competitions into the data dir: public files for agents (train/test/sample submission, " +
        "description.md), private answers, and the leaderboard. Offline competitions are built from datasets " +
        "that ship inside npm or Debian packages and checked against recorded md5 checksums. Running it again " +
        "only verifies the checksums.",
    )
    .option("-c, --competition <id...>", "competition id(s) to prepare")
    .option("--split <name>", "every competition of a split, e.g. offline")
    .option("--all", "every competition that can be prepared here (the offline split)")
    .addOption(dataDirOption())
    .option("--force", "prepare again even if the files are present and verified")
    .option("--update-checksums", "record the produced md5s in the competition folder instead of checking them (maintainers)")
    .option("--json", "print one JSON object per competition instead of text")
    .action(
      action(async (flags: PrepareFlags) => {
        const chosen = pick(flags);
        const dataDir = resolveDataDir(flags.dataDir);
        const bar = progressBar("Preparing", flags.json === true);
        const results: (PrepareResult | { id: string; status: "failed"; error: string })[] = [];
        for (const [k, c] of chosen.entries()) {
          bar.update(k, chosen.length);
          try {
            results.push(await prepareCompetition(c, dataDir, { force: flags.force, updateChecksums: flags.updateChecksums }));
          } catch (e) {
            if (chosen.length === 1 && e instanceof UserError) throw e;
            results.push({ id: c.id, status: "failed", error: (e as Error).message });
          }
        }
        bar.update(chosen.length, chosen.length);
        bar.stop();
        for (const r of results) {
          if (flags.json) process.stdout.write(JSON.stringify(r) + "\n");
          else if (r.status === "failed") process.stdout.write(`${r.id.padEnd(40)} failed: ${r.error}\n`);
          else process.stdout.write(`${r.id.padEnd(40)} ${r.status} (${r.files} files)\n`);
        }
        if (!flags.json) process.stdout.write(`data dir: ${dataDir}\n`);
        return results.some((r) => r.status === "failed") ? EXIT.failed : EXIT.ok;
      }),
    );
}

function pick(flags: PrepareFlags): Competition[] {
  const modes = [flags.competition !== undefined, flags.split !== undefined, flags.all === true].filter(Boolean).length;
  if (modes !== 1) throw new UserError("Say what to prepare with exactly one of -c <id>, --split <name> or --all.");
  if (flags.competition) return flags.competition.map(getCompetition);
  if (flags.split) return competitionsInSplit(flags.split);
  return [...COMPETITIONS.values()].filter((c) => c.offline);
}
