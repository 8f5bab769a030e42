import path from "node:path";
import type { Command } from "commander";
import { loadCompetition } from "../competitions/registry.js";
import { resolveDataDir } from "../core/paths.js";
import { gradeJsonl } from "../grading/grade-jsonl.js";
import { progressBar } from "../present/progress.js";
import { EXIT, action, dataDirOption } from "./common.js";
import { summaryOf } from "./command-help.js";

/** `mlebench grade --submission X.jsonl --output-dir D`: grade many submissions into one report file. */
export function register(program: Command): void {
  program
    .command("grade")
    .summary(summaryOf("grade"))
    .description(
      "Grade every submission listed in a JSONL file (one {\"competition_id\", \"submission_path\"} object per " +
        "line; lines starting with # or // are skipped) and write <output-dir>/<timestamp>_grading_report.json. " +
        "A line that cannot be graded is recorded under \"errors\" and the others go on; the exit status is then 1.",
    )
    .requiredOption("--submission <file.jsonl>", "JSONL file listing the submissions to grade")
    .requiredOption("--output-dir <dir>", "directory for the grading report (created if missing)")
    .addOption(dataDirOption())
    .option("--json", "print the summary (report path, totals, errors) as JSON instead of text")
    .action(
      action(async (opts: { submission: string; outputDir: string; dataDir?: string; json?: boolean }) => {
        const bar = progressBar("Grading", opts.json === true);
        const { summary, reportPath } = await gradeJsonl(
          opts.submission,
          opts.outputDir,
          resolveDataDir(opts.dataDir),
          loadCompetition,
          (done, total) => bar.update(done, total),
        );
        bar.stop();
        const { competition_reports: _reports, errors, ...totals } = summary;
        if (opts.json) {
          process.stdout.write(JSON.stringify({ report_path: reportPath, ...totals, errors }, null, 2) + "\n");
        } else {
          const lines = Object.entries(totals).map(([k, v]) => `${k.padEnd(28)} ${v}`);
          for (const err of errors) lines.push(`error: ${err.reason}`);
          lines.push(`Saved grading report to ${path.resolve(reportPath)}`);
          process.stdout.write(lines.join("\n") + "\n");
        }
        return errors.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
}
