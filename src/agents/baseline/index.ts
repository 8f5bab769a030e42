import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ExecResult } from "../../sandbox/types.js";
import type { Agent, AgentContext, AgentOutcome } from "../types.js";

/** The Python program the baseline writes into /home/code and runs (shipped next to this module). */
export const BASELINE_SCRIPT = fileURLToPath(new URL("./baseline.py", import.meta.url));

/** Models tried in order: the task's standard model, a linear one, then priors. */
const ATTEMPTS = [
  { model: "auto", share: 0.7 },
  { model: "linear", share: 0.6 },
  { model: "prior", share: 1 },
] as const;

/** Seconds kept back at the end of the run for validation and the next fallback. */
const RESERVE_S = 20;

/** Whether the validation server accepted the file, from validate_submission.sh's JSON reply. */
export function parseValidation(stdout: string): { valid: boolean; message: string } {
  const line = stdout.trim().split("\n").find((l) => l.startsWith("{"));
  if (!line) return { valid: false, message: stdout.trim() || "no reply from the validation server" };
  try {
    const reply = JSON.parse(line) as { result?: string; error?: string };
    const message = reply.result ?? reply.error ?? line;
    return { valid: message === "Submission is valid.", message };
  } catch {
    return { valid: false, message: line };
  }
}

/** A shell-free argv that writes stdin to a file inside the sandbox. */
function writeFileArgv(file: string): string[] {
  return ["/bin/sh", "-c", 'cat > "$1"', "write", file];
}

/**
 * The no-LLM baseline: infers the task from the files, fits xgboost (tabular), TF-IDF + a linear
 * model (text) or a small CNN / PCA + logistic regression (images) within the time it has, checks
 * the submission with the validation server, and falls back to simpler models and then priors,
 * so it always leaves a valid submission when one can be made.
 */
export function baselineAgent(): Agent {
  return {
    id: "baseline",
    env: {},
    secretNames: [],
    allowHosts: [],
    files: {},
    async run(ctx: AgentContext): Promise<AgentOutcome> {
      const p = ctx.sandbox.paths;
      const code = path.posix.join(p.code, "baseline.py");
      const submission = path.posix.join(p.submission, "submission.csv");
      const exec = (argv: string[], opts: { input?: string; timeoutMs?: number } = {}) =>
        ctx.sandbox.exec(argv, { ...opts, logFile: ctx.agentLog, cwd: p.workspace });
      const note = (line: string) => {
        fs.appendFileSync(ctx.agentLog, `[baseline] ${line}\n`);
        ctx.log(`baseline: ${line}`);
      };
      const ended = (r: ExecResult): AgentOutcome | null =>
        r.reason === "interrupted" || r.reason === "oom" || r.reason === "disk_limit" || Date.now() >= ctx.deadline
          ? { reason: Date.now() >= ctx.deadline && r.reason === "crashed" ? "time_limit" : r.reason, exitCode: r.exitCode, signal: r.signal }
          : null;

      note(`writing ${code}`);
      let r = await exec(writeFileArgv(code), { input: fs.readFileSync(BASELINE_SCRIPT, "utf8") });
      if (r.exitCode !== 0) return { reason: "crashed", exitCode: r.exitCode, signal: r.signal };

      note("inferring the task from the data files and description.md");
      r = await ctx.sandbox.exec(["/usr/bin/python3", code, "plan"], { timeoutMs: 120_000, cwd: p.workspace });
      const stop = ended(r);
      if (stop) return stop;
      const planLine = r.stdout.trim().split("\n").at(-1) ?? "";
      if (r.exitCode === 0 && planLine.startsWith("{")) {
        await exec(writeFileArgv(path.posix.join(p.code, "plan.json")), { input: planLine + "\n" });
        const plan = JSON.parse(planLine) as Record<string, unknown>;
        note(`plan: ${plan.kind} on ${plan.modality} data, ${plan.kind === "multilabel" ? `labels ${String(plan.labels)}` : `target ${plan.label}`}, metric ${plan.metric ?? "unknown"}`);
        for (const { model, share } of ATTEMPTS) {
          const left = (ctx.deadline - Date.now()) / 1000 - RESERVE_S;
          const budget = Number.isFinite(left) ? Math.max(10, Math.floor(left * share)) : 3600;
          note(`fitting model "${model}" with a ${budget}s budget`);
          r = await exec(["/usr/bin/python3", code, "fit", "--model", model, "--budget", String(budget)], {
            timeoutMs: (budget + RESERVE_S / 2) * 1000,
          });
          const end = ended(r);
          if (end) return end;
          if (r.exitCode === 0) {
            const v = parseValidation((await exec(["/bin/bash", p.validateScript, submission])).stdout);
            note(`validation: ${v.message}`);
            if (v.valid) return { reason: "finished", exitCode: 0, signal: null };
          } else {
            note(`model "${model}" failed (${r.reason}, exit ${r.exitCode ?? r.signal}); trying a simpler one`);
          }
        }
      } else {
        note(`could not infer the task (exit ${r.exitCode}): ${r.stderr.trim().split("\n").at(-1) ?? ""}`);
      }
      // Last resort: the sample submission is always valid.
      note("submitting the sample submission");
      r = await exec(["/bin/cp", path.posix.join(p.data, ctx.competition.sampleSubmission), submission]);
      return ended(r) ?? { reason: r.exitCode === 0 ? "finished" : "crashed", exitCode: r.exitCode, signal: r.signal };
    },
  };
}
