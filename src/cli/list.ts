import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { competitionPaths, resolveDataDir } from "../core/paths.js";
import { CATALOG, catalogEntry } from "../competitions/catalog.js";
import { COMPETITIONS, competitionsInSplit } from "../competitions/registry.js";
import { PREPARERS } from "../competitions/preparers.js";
import { SPLITS } from "../competitions/splits.js";
import { gradingPaths } from "../grading/grade.js";
import { action, dataDirOption } from "./common.js";

/** "ready": grader here and data prepared; "grader": grader here only; "no grader": upstream-only so far. */
export type ListStatus = "ready" | "grader" | "no grader";

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

/** Rows for --all, where competitions without a grader here still show, so coverage is visible. */
function allRows(dataDir: string, split?: string): AllRow[] {
  return allIds(split).map((id) => {
    const c = COMPETITIONS.get(id);
    const e = catalogEntry(id);
    const p = competitionPaths(dataDir, id);
    // The catalog knows where upstream puts the answers, so "prepared" is meaningful even without a grader.
    const answers = c ? gradingPaths(c, dataDir).answers : path.join(p.private, e!.answers);
    const prepared = fs.existsSync(answers) && fs.existsSync(p.public);
    const status: ListStatus = !c ? "no grader" : prepared ? "ready" : "grader";
    return {
      id,
      name: c?.name ?? e!.name,
      complexity: c?.complexity ?? e?.complexity ?? null,
      category: c?.category ?? e?.category ?? null,
      metric: c?.metric ?? e!.grader,
      prepared,
      gradable: c !== undefined && fs.existsSync(answers) && fs.existsSync(p.leaderboard),
      grader: c !== undefined,
      status,
      preparer: c?.offline !== undefined || PREPARERS.has(id),
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
    .summary("list competitions with graders and whether they are prepared")
    .description(
      "List the competitions that have graders, with category, metric and whether each is prepared. " +
        "With --all, list every upstream MLE-bench competition too, with a status: ready, grader or no grader.",
    )
    .option("--split <name>", "only competitions of this split (low, lite, medium, high, split75, offline, dev)")
    .option("--all", "also list upstream competitions whose grader is not implemented yet, with a status column")
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
            `\n${rows.length} competitions: ${count("ready")} ready, ${count("grader")} grader, ` +
              `${count("no grader")} no grader; data dir: ${dataDir}\n`,
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
