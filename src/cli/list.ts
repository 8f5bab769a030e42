import fs from "node:fs";
import type { Command } from "commander";
import { competitionPaths, gradingPaths, resolveDataDir } from "../core/paths.js";
import { CATALOG, catalogEntry } from "../competitions/catalog.js";
import { COMPETITIONS, competitionsInSplit, getCompetition } from "../competitions/registry.js";
import { PREPARERS } from "../competitions/preparers.js";
import { SPLITS } from "../competitions/splits.js";
import { action, dataDirOption } from "./common.js";
import { summaryOf } from "./command-help.js";

/** "ready": data prepared, so submissions can be graded; "not prepared": run mlebench prepare first. */
export type ListStatus = "ready" | "not prepared";

interface Row {
  id: string;
  name: string;
  complexity: string | null;
  category: string | null;
  metric: string;
  prepared: boolean;
  gradable: boolean;
  /** Whether the competition's grader is implemented here. */
  grader: boolean;
}

interface AllRow extends Row {
  status: ListStatus;
  /** Whether `mlebench prepare` can build it here (an offline source, or a ported upstream preparer). */
  preparer: boolean;
  dev: boolean;
}

/** One row per competition with a grader here; its shape is what scripts consuming --json rely on. */
function gradedRows(dataDir: string, split?: string): Row[] {
  const comps = split ? competitionsInSplit(split) : [...COMPETITIONS.values()];
  return comps.map((c) => {
    const g = gradingPaths(c, dataDir);
    return {
      id: c.id,
      name: c.name,
      complexity: c.complexity ?? null,
      category: c.category ?? null,
      metric: c.metric,
      prepared: fs.existsSync(g.answers) && fs.existsSync(competitionPaths(dataDir, c.id).public),
      gradable: fs.existsSync(g.answers) && fs.existsSync(g.leaderboard),
      grader: true,
    };
  });
}

/** Ids for --all: every upstream competition, then the offline ones that upstream lacks. */
function allIds(split?: string): readonly string[] {
  if (split) {
    // Reuses the split check so an unknown split fails with the same message as without --all.
    competitionsInSplit(split);
    return SPLITS[split];
  }
  return [...CATALOG.map((e) => e.id), ...[...COMPETITIONS.keys()].filter((id) => !catalogEntry(id))];
}

/** Rows for --all: every competition with its status, preparer and dev flag. */
function allRows(dataDir: string, split?: string): AllRow[] {
  return allIds(split).map((id) => {
    const c = getCompetition(id);
    const e = catalogEntry(id);
    const g = gradingPaths(c, dataDir);
    const prepared = fs.existsSync(g.answers) && fs.existsSync(competitionPaths(dataDir, id).public);
    return {
      id,
      name: c.name,
      complexity: c.complexity ?? e?.complexity ?? null,
      category: c.category ?? e?.category ?? null,
      metric: c.metric,
      prepared,
      gradable: prepared && fs.existsSync(g.leaderboard),
      grader: true,
      status: prepared ? "ready" : "not prepared",
      preparer: c.offline !== undefined || PREPARERS.has(id),
      dev: e?.dev ?? false,
    };
  });
}

/** Left-aligned columns sized to their widest cell. */
function formatTable(header: string[], cells: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const fmt = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();
  return [fmt(header), ...cells.map(fmt)].join("\n") + "\n";
}

/** `mlebench list`: the competitions with graders, their metric and whether they are prepared. */
export function register(program: Command): void {
  program
    .command("list")
    .summary(summaryOf("list"))
    .description(
      "List the competitions that have graders, with category, metric and whether each is prepared. " +
        "With --all, add a status column (ready or not prepared), whether a preparer " +
          "exists and the dev flag, and print a tally.",
    )
    .option("--split <name>", "only competitions of this split (low, lite, medium, high, split75, dev, systemcard; offline, offline-lite, offline-low, offline-medium, offline-high)")
    .option("--all", "add status, preparer and dev columns and a tally of prepared competitions")
    .addOption(dataDirOption())
    .option("--json", "print a JSON array instead of a table")
    .action(
      action((opts: { split?: string; dataDir?: string; json?: boolean; all?: boolean }) => {
        const dataDir = resolveDataDir(opts.dataDir);
        if (opts.all) {
          const rows = allRows(dataDir, opts.split);
          if (opts.json) {
            process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
            return;
          }
          const header = ["id", "status", "preparer", "complexity", "category", "metric"];
          const cells = rows.map((r) => [r.id, r.status, r.preparer ? "yes" : "no", r.complexity ?? (r.dev ? "dev" : "-"), r.category ?? "-", r.metric]);
          process.stdout.write(formatTable(header, cells));
          const count = (s: ListStatus) => rows.filter((r) => r.status === s).length;
          process.stdout.write(
            `\n${rows.length} competitions: ${count("ready")} ready, ${count("not prepared")} not prepared; data dir: ${dataDir}\n`,
          );
          return;
        }
        const rows = gradedRows(dataDir, opts.split);
        if (opts.json) {
          process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
          return;
        }
        const header = ["id", "complexity", "category", "metric", "prepared"];
        const cells = rows.map((r) => [r.id, r.complexity ?? "-", r.category ?? "-", r.metric, r.prepared ? "yes" : "no"]);
        process.stdout.write(formatTable(header, cells));
        process.stdout.write(`\n${rows.length} competitions; data dir: ${dataDir}\n`);
      }),
    );
}
