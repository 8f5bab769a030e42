import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../core/errors.js";
import { resolveDataDir } from "../core/paths.js";
import { SPLITS } from "../competitions/splits.js";
import { writeFileAtomic } from "../core/atomic.js";
import { buildReport } from "../report/build.js";
import { renderHtml } from "../report/html.js";
import { loadInputs } from "../report/inputs.js";
import { localGroupDir } from "../queue/pull.js";
import { renderMarkdown } from "../report/markdown.js";
import { parsePositiveInt } from "../sandbox/limits.js";
import { action, dataDirOption } from "./common.js";
import { summaryOf } from "./command-help.js";

interface ReportFlags {
  split?: string;
  out: string;
  format: string;
  padMissing?: boolean;
  numSeeds?: string;
  dataDir?: string;
  json?: boolean;
  viewer?: string;
}

const FORMATS = ["html", "md", "json"] as const;

/** `mlebench report`: the paper's tables and charts from run groups or grading reports. */
export function register(program: Command): void {
  program
    .command("report")
    .summary(summaryOf("report"))
    .description(
      "Aggregate run groups (directories made by `mlebench run`) and grading-report JSON files (upstream's " +
        "`*_grading_report.json`, or one CompetitionReport) into the MLE-bench paper's numbers, per agent: made/valid " +
        "submission, above median, bronze/silver/gold/any medal as mean ± SEM over seeds for the low/medium/high/all " +
        "splits, pass@k, any-medal rate over the time limit from snapshots, per-competition scores and thresholds, and " +
        "wall time. Seeds are formed as upstream does: the i-th report of each competition is seed i.",
    )
    .argument(
      "<inputs...>",
      "run group directories (or s3://bucket[/prefix]/<group> URLs, pulled into $MLEBENCH_S3_CACHE, default <tmp>/mlebench-s3-cache) " +
        "and/or grading report .json files (several agents are compared side by side)",
    )
    .option("--split <name>", "report on this split's competitions (e.g. lite, split75, systemcard, offline, offline-lite); default: every competition in the inputs")
    .option("--out <dir>", "where report.html, report.md and report.json are written", "report")
    .option("--format <list>", "comma-separated formats to write: html, md, json", "html,md,json")
    .option("--pad-missing", "count competitions missing from a seed as failures instead of requiring complete seeds")
    .option("--num-seeds <n>", "use at most this many seeds (default: all complete seeds)")
    .addOption(dataDirOption())
    .option("--json", "also print the report JSON on stdout")
    .option("--viewer <url>", "the address `mlebench view` printed for the same groups: each run in report.html links into it")
    .action(
      action(async (args: string[], flags: ReportFlags) => {
        const formats = flags.format.split(",").map((s) => s.trim()).filter(Boolean);
        const bad = formats.find((f) => !(FORMATS as readonly string[]).includes(f));
        if (bad !== undefined || formats.length === 0) throw new UserError(`--format: "${bad ?? ""}" is not one of ${FORMATS.join(", ")}`);
        let ids: string[] | null = null;
        if (flags.split !== undefined) {
          ids = SPLITS[flags.split] ? [...SPLITS[flags.split]] : null;
          if (!ids) throw new UserError(`--split: unknown split "${flags.split}"; known splits: ${Object.keys(SPLITS).join(", ")}`);
        }
        if (flags.viewer !== undefined && !/^https?:\/\/[^\s]+$/.test(flags.viewer)) throw new UserError(`--viewer: expected the http:// address \`mlebench view\` printed, got "${flags.viewer}"`);
        const numSeeds = flags.numSeeds === undefined ? null : parsePositiveInt(flags.numSeeds, "--num-seeds");
        const dataDir = resolveDataDir(flags.dataDir);
        const inputs: string[] = [];
        // A group pulled from a bucket is named by its URL in the report, not by its cache dir.
        const shownAs = new Map<string, string>();
        for (const a of args) {
          const local = await localGroupDir(a, "report", (line) => process.stderr.write(`${line}\n`));
          if (local !== a) shownAs.set(path.resolve(local), a);
          inputs.push(local);
        }
        const agents = await loadInputs(inputs, dataDir, shownAs);
        const competitionIds = ids ?? [...new Set(agents.flatMap((a) => a.runs.map((r) => r.report.competition_id)))].sort();
        const data = await buildReport(agents, { split: flags.split ?? null, competitionIds, padMissing: flags.padMissing === true, numSeeds, dataDir });
        fs.mkdirSync(flags.out, { recursive: true });
        const written: string[] = [];
        const write = (name: string, text: string) => {
          const file = path.join(flags.out, name);
          writeFileAtomic(file, text);
          written.push(file);
        };
        if (formats.includes("json")) write("report.json", JSON.stringify(data, null, 2) + "\n");
        if (formats.includes("md")) write("report.md", renderMarkdown(data));
        if (formats.includes("html")) write("report.html", renderHtml(data, { viewerUrl: flags.viewer }));
        for (const w of data.warnings) process.stderr.write(`warning: ${w}\n`);
        if (flags.json) process.stdout.write(JSON.stringify(data, null, 2) + "\n");
        else process.stdout.write(written.join("\n") + "\n");
      }),
    );
}
