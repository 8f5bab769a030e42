import type { Command } from "commander";
import { resolveDataDir } from "../core/paths.js";
import { loadOneCompetition } from "../competitions/load-one.js";
import { gradeSubmission } from "../grading/grade.js";
import { formatReport } from "../grading/format.js";
import { action, dataDirOption } from "./common.js";
import { summaryOf } from "./command-help.js";

/** `mlebench grade-sample <submission> <competition-id>`: grade one CSV and print its report. */
export function register(program: Command): void {
  program
    .command("grade-sample")
    .summary(summaryOf("grade-sample"))
    .description(
      "Grade one submission CSV for one competition and print the report (score, medal thresholds, " +
        "medals, validity). An invalid or missing submission still prints a report, with the reason, and exits 0.",
    )
    .argument("<submission>", "path to the submission CSV")
    .argument("<competition-id>", "competition id, e.g. spaceship-titanic (see: mlebench list)")
    .addOption(dataDirOption())
    .option("--json", "print the report as JSON (upstream CompetitionReport keys plus invalid_reason)")
    .action(
      action(async (submission: string, competitionId: string, opts: { dataDir?: string; json?: boolean }) => {
        const competition = await loadOneCompetition(competitionId);
        const report = gradeSubmission(competition, submission, resolveDataDir(opts.dataDir));
        const text = opts.json
          ? JSON.stringify(report, null, 2) + "\n"
          : formatReport(report, { referencePopulation: competition.offline !== undefined });
        process.stdout.write(text);
      }),
    );
}
