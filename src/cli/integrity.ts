import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { agentClient, llmSettings } from "../llm/options.js";
import { competitionsInSplit, getCompetition } from "../competitions/registry.js";
import { UserError } from "../core/errors.js";
import { resolveDataDir } from "../core/paths.js";
import { disqualify, integrityDir } from "../integrity/disqualify.js";
import { countFlags, writeIntegrityResult } from "../integrity/flags.js";
import { auditMany, formatLeakageReport } from "../integrity/leakage/index.js";
import { checkPlagiarism, downloadKernels, kernelsDir, loadKernelRefs, PLAGIARISM_CHECK, type PlagiarismResult } from "../integrity/plagiarism/index.js";
import { judgeRun, runChecks, summarizeJudgements, type RulesJudgement } from "../integrity/rules/index.js";
import { listRuns, type Flag, type RunDir } from "../integrity/types.js";
import { writeFileAtomic } from "../core/atomic.js";
import { parsePositiveInt } from "../sandbox/limits.js";
import { EXIT, action, dataDirOption } from "./common.js";
import { addLlmOptions, llmRequestFromFlags, numberFlag, type LlmFlags } from "./llm-flags.js";
import { progressBar } from "../present/progress.js";
import { summaryOf } from "./command-help.js";

/** Per check, the runs flagged over the runs checked. */
function flagSummary(flags: Flag[]): { check: string; checked: number; flagged: number; percentFlagged: number }[] {
  return countFlags(flags).map((row) => ({ ...row, percentFlagged: (row.flagged / row.checked) * 100 }));
}

/** Write the group's summary of one check under <group>/integrity/. */
function writeGroupSummary(group: string, name: string, summary: unknown): string {
  const file = path.join(integrityDir(group), `${name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, JSON.stringify(summary, null, 2) + "\n");
  return file;
}

function printFlags(flags: Flag[], runs: RunDir[]): void {
  for (const f of flags) {
    const run = runs.find((r) => r.runId === f.run);
    process.stdout.write(`${f.flagged ? "FLAGGED" : "ok     "}  ${f.check.padEnd(24)} ${run?.competitionId ?? ""} ${f.run}: ${f.reason}\n`);
    if (f.flagged) for (const e of f.evidence.slice(0, 5)) process.stdout.write(`           ${e}\n`);
  }
}

interface PlagiarismFlags {
  references?: string;
  downloadKernels?: boolean;
  threshold: string;
  top: string;
  disqualify?: boolean;
  dataDir?: string;
  json?: boolean;
}

interface RulesFlags extends LlmFlags {
  checksOnly?: boolean;
  chunkChars?: string;
  disqualify?: boolean;
  json?: boolean;
}

/** `mlebench integrity`: plagiarism, rule violations and leakage. */
export function register(program: Command): void {
  const integrity = program
    .command("integrity")
    .summary(summaryOf("integrity"))
    .description(
      "A medal counts only if it was honestly earned. `plagiarism` compares the code each run left with the competition's top public " +
        "notebooks (Dolos); `rules` asks an LLM judge the three questions of MLE-bench's rule-violation detector and runs checks that need " +
        "no LLM; `leakage` audits prepared competitions for public files that give away the answers. Results go to <run>/integrity/ and " +
        "<group>/integrity/, and `mlebench report` shows them.",
    );

  integrity
    .command("plagiarism")
    .description("compare every run's code (code/, any language Dolos parses) with reference code; flag runs whose best similarity reaches the threshold")
    .argument("<group>", "run group directory made by `mlebench run`")
    .option("--references <dir>", "folder of reference code for every run (default: <data-dir>/<competition>/kernels, filled by --download-kernels)")
    .option("--download-kernels", "first download each competition's kernels.txt notebooks with the Kaggle client (needs Kaggle credentials)")
    .option("--threshold <x>", "similarity (0 to 1) at which a run is flagged (the MLE-bench paper's 0.6)", "0.6")
    .option("--top <n>", "most similar file pairs kept per run", "5")
    .option("--disqualify", "take the medals of flagged runs away (their grading_report.json is rewritten; the graded one is kept in integrity/)")
    .addOption(dataDirOption())
    .option("--json", "print the results as JSON")
    .action(
      action(async (group: string, flags: PlagiarismFlags) => {
        const groupDir = path.resolve(group);
        const runs = listRuns(groupDir);
        const dataDir = resolveDataDir(flags.dataDir);
        const threshold = numberFlag(flags.threshold, "--threshold")!;
        const top = parsePositiveInt(flags.top, "--top");
        if (flags.references !== undefined && !fs.existsSync(flags.references)) throw new UserError(`--references: ${flags.references} does not exist`);
        if (flags.downloadKernels && flags.references === undefined) {
          for (const id of [...new Set(runs.map((r) => r.competitionId))]) {
            const refs = await loadKernelRefs(id, { dataDir });
            const { results } = await downloadKernels({ dataDir, competitionId: id, refs });
            const skipped = results.filter((r) => r.status === "skipped");
            process.stderr.write(`${id}: ${results.length - skipped.length} of ${results.length} reference kernels on disk\n`);
            for (const s of skipped) process.stderr.write(`  skipped ${s.ref}: ${s.reason}\n`);
          }
        }
        const results: (PlagiarismResult | { run: string; error: string })[] = [];
        const bar = progressBar("plagiarism", flags.json);
        for (const [i, run] of runs.entries()) {
          try {
            const referenceDir = path.resolve(flags.references ?? kernelsDir(dataDir, run.competitionId));
            const result = await checkPlagiarism(run, { referenceDir, threshold, top });
            writeIntegrityResult(run.dir, PLAGIARISM_CHECK, [result.flag], result);
            if (flags.disqualify && result.flag.flagged) disqualify(run.dir, `plagiarism: ${result.flag.reason}`);
            results.push(result);
          } catch (e) {
            if (!(e instanceof UserError)) throw e;
            results.push({ run: run.runId, error: e.message });
          }
          bar.update(i + 1, runs.length);
        }
        bar.stop();
        const flagsOut = results.flatMap((r) => ("flag" in r ? [r.flag] : []));
        const errors = results.flatMap((r) => ("error" in r ? [r] : []));
        const summary = { check: PLAGIARISM_CHECK, threshold, summary: flagSummary(flagsOut), errors, runs: results };
        const file = writeGroupSummary(groupDir, PLAGIARISM_CHECK, summary);
        if (flags.json) process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
        else {
          printFlags(flagsOut, runs);
          for (const e of errors) process.stdout.write(`error    ${e.run}: ${e.error}\n`);
          process.stdout.write(`${file}\n`);
        }
        return errors.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );

  const rules = integrity
    .command("rules")
    .description(
      "check each run for rule violations: deterministic checks from the harness's records (blocked network attempts, reads outside the " +
        "allowed paths, a submission no executed code produced, hard-coded labels) and, unless --checks-only, an LLM judge asked whether " +
        "predictions were written by hand, an external LLM API was called from code, or outside data or solutions were sought",
    )
    .argument("<group>", "run group directory made by `mlebench run`")
    .option("--checks-only", "run only the deterministic checks (no LLM)")
    .option("--chunk-chars <n>", "characters of logs or code per judge call (long inputs are split)", "100000")
    .option("--disqualify", "take the medals of runs the judge answers yes for (deterministic checks never disqualify)");
  addLlmOptions(rules, "for the judge");
  rules.option("--json", "print the results as JSON").action(
    action(async (group: string, flags: RulesFlags) => {
      const groupDir = path.resolve(group);
      const runs = listRuns(groupDir);
      const llm = flags.checksOnly
        ? null
        : agentClient(llmSettings(llmRequestFromFlags(flags), process.env, "the rule judge (without --checks-only)"), path.join(integrityDir(groupDir), "llm.jsonl"), (m) =>
            process.stderr.write(`${m}\n`),
          );
      if (!flags.checksOnly) fs.mkdirSync(integrityDir(groupDir), { recursive: true });
      const chunkChars = parsePositiveInt(flags.chunkChars ?? "100000", "--chunk-chars");
      const allFlags: Flag[] = [];
      const judgements: RulesJudgement[] = [];
      const bar = progressBar("rules", flags.json);
      for (const [i, run] of runs.entries()) {
        const checks = runChecks(run);
        writeIntegrityResult(run.dir, "rules", checks, null);
        allFlags.push(...checks);
        if (llm) {
          const j = await judgeRun(run, llm, { chunkChars });
          writeIntegrityResult(run.dir, "rules-llm", [j.flag], j);
          judgements.push(j);
          allFlags.push(j.flag);
          if (flags.disqualify && j.flag.flagged) disqualify(run.dir, `rule violation: ${j.flag.reason}`);
        }
        bar.update(i + 1, runs.length);
      }
      bar.stop();
      const summary = {
        checks: flagSummary(allFlags),
        judge: llm ? { model: llm.model, questions: summarizeJudgements(judgements), usage: llm.totals() } : null,
        runs: runs.map((r) => ({ run: r.runId, competition: r.competitionId, flags: allFlags.filter((f) => f.run === r.runId) })),
      };
      const file = writeGroupSummary(groupDir, "rules", summary);
      if (flags.json) process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
      else {
        printFlags(allFlags, runs);
        for (const s of summary.checks) process.stdout.write(`${s.check}: ${s.flagged} of ${s.checked} runs flagged (${s.percentFlagged.toFixed(1)}%)\n`);
        process.stdout.write(`${file}\n`);
      }
    }),
  );

  integrity
    .command("leakage")
    .description(
      "audit prepared competitions for leaks of the private answers into public files: copied answer files or columns, columns that map " +
        "one-to-one onto the target or determine it, a single feature scoring near-perfectly, test ids present in train, duplicate rows across the split",
    )
    .option("-c, --competition <ids...>", "competitions to audit")
    .option("--split <name>", "audit every prepared competition of this split (e.g. offline, lite, split75, systemcard)")
    .addOption(dataDirOption())
    .option("--json", "print the reports as JSON")
    .action(
      action((flags: { competition?: string[]; split?: string; dataDir?: string; json?: boolean }) => {
        if ((flags.competition === undefined) === (flags.split === undefined)) throw new UserError("say what to audit with exactly one of -c <ids...> or --split <name>");
        const ids = flags.competition ?? competitionsInSplit(flags.split!).map((c) => c.id);
        for (const id of ids) getCompetition(id);
        const dataDir = resolveDataDir(flags.dataDir);
        const { reports, failures } = auditMany(ids, dataDir);
        if (flags.json) process.stdout.write(JSON.stringify({ reports, failures }, null, 2) + "\n");
        else {
          for (const r of reports) process.stdout.write(formatLeakageReport(r) + "\n");
          for (const f of failures) process.stdout.write(`${f.competition}: not audited: ${f.error}\n`);
        }
        // Every competition named explicitly must be audited; a split skips those not prepared here.
        return flags.competition && failures.length > 0 ? EXIT.failed : EXIT.ok;
      }),
    );
}
