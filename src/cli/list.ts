import fs from "node:fs";
import type { Command } from "commander";
import { competitionPaths, resolveDataDir } from "../core/paths.js";
import { COMPETITIONS, competitionsInSplit } from "../competitions/registry.js";
import { gradingPaths } from "../grading/grade.js";
import { action, dataDirOption } from "./common.js";

/** `mlebench list`: the competitions with graders, their metric and whether they are prepared. */
export function register(program: Command): void {
  program
    .command("list")
    .summary("list competitions with graders and whether they are prepared")
    .description("List the competitions that have graders, with category, metric and whether each is prepared.")
    .option("--split <name>", "only competitions of this split (low, lite, medium, high, split75, offline, dev)")
    .addOption(dataDirOption())
    .option("--json", "print a JSON array instead of a table")
    .action(
      action((opts: { split?: string; dataDir?: string; json?: boolean }) => {
        const dataDir = resolveDataDir(opts.dataDir);
        const comps = opts.split ? competitionsInSplit(opts.split) : [...COMPETITIONS.values()];
        const rows = comps.map((c) => {
          const g = gradingPaths(c, dataDir);
          return {
            id: c.id,
            name: c.name,
            complexity: c.complexity ?? null,
            category: c.category ?? null,
            metric: c.metric,
            prepared: fs.existsSync(g.answers) && fs.existsSync(competitionPaths(dataDir, c.id).public),
            gradable: fs.existsSync(g.answers) && fs.existsSync(g.leaderboard),
          };
        });
        if (opts.json) {
          process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
          return;
        }
        const header = ["id", "complexity", "category", "metric", "prepared"];
        const table = rows.map((r) => [r.id, r.complexity ?? "-", r.category ?? "-", r.metric, r.prepared ? "yes" : "no"]);
        const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
        const fmt = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();
        process.stdout.write([fmt(header), ...table.map(fmt)].join("\n") + "\n");
        process.stdout.write(`\n${rows.length} competitions; data dir: ${dataDir}\n`);
      }),
    );
}
