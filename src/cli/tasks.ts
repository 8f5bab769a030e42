import path from "node:path";
import { Option, type Command } from "commander";
import { llmSettings } from "../llm/options.js";
import { UserError } from "../core/errors.js";
import { resolveDataDir } from "../core/paths.js";
import { evaluateGroup } from "../mlagentbench/eval/index.js";
import { runResearchGroup } from "../mlagentbench/group.js";
import { sandboxedTaskRunner } from "../mlagentbench/sandbox.js";
import { getTask, loadTasks } from "../mlagentbench/tasks/registry.js";
import { taskDataDir, type ResearchTask, type TaskContext } from "../mlagentbench/tasks/types.js";
import { LIMIT_DEFAULTS, limitsFromFlags, parseDuration, parsePositiveInt } from "../sandbox/limits.js";
import { LOCAL_WARNING } from "../sandbox/local.js";
import { defaultSandbox, getSandboxBackend, SANDBOX_BACKENDS } from "../sandbox/registry.js";
import type { SandboxBackend } from "../sandbox/types.js";
import { EXIT, action } from "./common.js";
import { addLlmOptions, llmRequestFromFlags, type LlmFlags } from "./llm-flags.js";
import { progressBar } from "../present/progress.js";
import { summaryOf } from "./command-help.js";

const AGENTS = ["mlab", "baseline"] as const;

/** A task's context for the user's data directory, reporting on stderr. */
function contextFor(dataDir: string, quiet = false): (task: ResearchTask) => TaskContext {
  return (task) => ({ dataDir: taskDataDir(dataDir, task.name), log: quiet ? undefined : (m) => process.stderr.write(`${task.name}: ${m}\n`) });
}

async function pickTasks(names: string[] | undefined, all: boolean | undefined, flag: string): Promise<ResearchTask[]> {
  if (all && names && names.length > 0) throw new UserError(`give task names or --all, not both`);
  if (all) return loadTasks();
  if (!names || names.length === 0) throw new UserError(`name the tasks (${flag}) or pass --all; \`mlebench tasks list\` shows them`);
  const tasks: ResearchTask[] = [];
  for (const name of names) tasks.push(await getTask(name));
  return tasks;
}

async function backendFor(name: string | undefined): Promise<SandboxBackend> {
  const backendName = name ?? defaultSandbox();
  const backend = getSandboxBackend(backendName);
  const problem = await backend.unavailable();
  if (problem) throw new UserError(`--sandbox ${backendName}: ${problem}`);
  if (backendName === "local") process.stderr.write(`${LOCAL_WARNING}\n`);
  return backend;
}

/** --data-dir as the research tasks use it. */
function taskDataDirOption(): Option {
  return new Option(
    "--data-dir <dir>",
    "data directory; each task keeps its data in <dir>/mlagentbench/<task>/ (default: $MLEBENCH_DATA_DIR, else <user cache>/mle-bench/data)",
  );
}

function sandboxOption(): Option {
  return new Option("--sandbox <backend>", `isolation backend (default: ${defaultSandbox()})`).choices([...SANDBOX_BACKENDS.keys()]);
}

function fmt(x: number | null | undefined, digits = 4): string {
  return x === null || x === undefined ? "-" : Number(x.toPrecision(digits)).toString();
}

interface RunFlags extends LlmFlags {
  task?: string[];
  all?: boolean;
  agent: string;
  seeds: string;
  runsDir: string;
  dataDir?: string;
  sandbox?: string;
  timeLimit: string;
  maxSteps: string;
  execTimeout: string;
  memory?: string;
  cpus?: string;
  concurrency: string;
  retrieval?: boolean;
  json?: boolean;
}

/** `mlebench tasks`: MLAgentBench-style research tasks (list, prepare, run, eval). */
export function register(program: Command): void {
  const tasks = program
    .command("tasks")
    .summary(summaryOf("tasks"))
    .description(
      "Research tasks in the style of MLAgentBench: a problem statement, starter code with a baseline, and an evaluator. " +
        "An agent works in an action environment (list/read/edit files, run scripts in a sandbox, LLM-assisted edits) and is judged " +
        "by how far it improves on the baseline (success = at least 10% better), and by its tokens and time.",
    );

  tasks
    .command("list")
    .description("list the research tasks: metric, direction, recorded baseline, and whether the task needs a download (and has it)")
    .addOption(taskDataDirOption())
    .option("--json", "print one JSON array of tasks")
    .action(
      action(async (flags: { dataDir?: string; json?: boolean }) => {
        const dataDir = resolveDataDir(flags.dataDir);
        const rows = (await loadTasks()).map((t) => {
          const ctx = contextFor(dataDir, true)(t);
          return {
            name: t.name,
            metric: t.metric,
            direction: t.direction,
            improvement_of: t.improvementOf ?? "score",
            baseline: t.baseline?.score ?? null,
            status: t.needsDownload ? (t.isReady?.(ctx) ? "ready" : "needs-download") : "ready",
            needs_download: t.needsDownload,
            read_only: t.readOnly,
          };
        });
        if (flags.json) {
          process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
          return;
        }
        const w = Math.max(...rows.map((r) => r.name.length));
        for (const r of rows) {
          process.stdout.write(`${r.name.padEnd(w)}  ${r.status.padEnd(14)}  ${r.direction.padEnd(6)}  baseline ${fmt(r.baseline).padEnd(9)}  ${r.improvement_of === "error" ? "improvement of the error 1 − score; " : ""}${r.metric}\n`);
        }
      }),
    );

  tasks
    .command("prepare")
    .description("download and prepare the data of tasks that need it (Kaggle tasks need Kaggle credentials and accepted rules) into <data-dir>/mlagentbench/<task>/")
    .argument("[names...]", "task names (see `mlebench tasks list`)")
    .option("--all", "every task that needs a download")
    .option("--mirror <url>", "fetch public-URL downloads from this base URL instead of their hosts (a local mirror)")
    .addOption(taskDataDirOption())
    .action(
      action(async (names: string[], flags: { all?: boolean; mirror?: string; dataDir?: string }) => {
        const dataDir = resolveDataDir(flags.dataDir);
        const chosen = (await pickTasks(names, flags.all, "names")).filter((t) => !flags.all || t.needsDownload);
        let failed = 0;
        for (const task of chosen) {
          if (!task.needsDownload || !task.fetchData) {
            process.stdout.write(`${task.name}: nothing to download (its data ships with the installed packages)\n`);
            continue;
          }
          const bar = progressBar(`${task.name} download`);
          const ctx: TaskContext = { ...contextFor(dataDir)(task), mirror: flags.mirror, onProgress: (done, total) => bar.update(done, total ?? done) };
          try {
            await task.fetchData(ctx);
            bar.stop();
            process.stdout.write(`${task.name}: ready in ${ctx.dataDir}\n`);
          } catch (e) {
            bar.stop();
            if (!(e instanceof UserError) && chosen.length === 1) throw e;
            process.stderr.write(`mlebench: ${task.name}: ${(e as Error).message}\n`);
            failed++;
          }
        }
        return failed > 0 ? EXIT.failed : EXIT.ok;
      }),
    );

  const run = tasks
    .command("run")
    .description(
      "run an agent on research tasks, each task once per seed, into <runs-dir>/<timestamp>_mlagentbench-group_<agent>/<task>-seed<k>/ " +
        "(group.json; per run workspace/, trace/ with trace.json and per-step snapshots of changed files, logs/, run.json); then evaluate with `mlebench tasks eval <group>`",
    )
    .option("-t, --task <names...>", "tasks to run")
    .option("--all", "every task whose data is ready")
    .addOption(new Option("--agent <id>", "mlab: the research agent (needs --llm-model); baseline: runs train.py once and stops").choices([...AGENTS]).default("mlab"))
    .option("--seeds <n>", "runs per task", "1")
    .option("--runs-dir <dir>", "where run groups are created", "runs")
    .addOption(taskDataDirOption())
    .addOption(sandboxOption())
    .option("--time-limit <duration>", "wall-clock limit of each run (the reference's)", "5h")
    .option("--max-steps <n>", "environment steps per run, which is also the agent's step limit (the reference's)", "50")
    .option("--exec-timeout <duration>", "time limit of one Execute Script", "1h")
    .option("--memory <size>", "memory limit of each run's sandbox, e.g. 16G (cgroups)")
    .option("--cpus <n>", "CPUs of each run's sandbox")
    .option("--concurrency <n>", "runs at once", "1")
    .option("--retrieval", "for --agent mlab: keep a research log of step summaries and show its relevant part instead of older steps");
  addLlmOptions(run, "for --agent mlab");
  run.option("--json", "print the group folder and the run records as JSON: { group_dir, records }").action(
    action(async (flags: RunFlags) => {
      const dataDir = resolveDataDir(flags.dataDir);
      const ready = (t: ResearchTask) => !t.needsDownload || t.isReady?.(contextFor(dataDir, true)(t)) === true;
      const picked = await pickTasks(flags.task, flags.all, "-t");
      // --all skips the tasks whose data is not there; a task named by the user must have it.
      const chosen = flags.all ? picked.filter(ready) : picked;
      const missing = flags.all ? undefined : chosen.find((t) => !ready(t));
      if (missing) throw new UserError(`task ${missing.name} needs its data: run \`mlebench tasks prepare ${missing.name} --data-dir ${dataDir}\` first`);
      const maxSteps = parsePositiveInt(flags.maxSteps, "--max-steps");
      const mlab = flags.agent === "mlab" ? { ...llmSettings(llmRequestFromFlags(flags), process.env, "--agent mlab"), steps: maxSteps, retrieval: flags.retrieval } : undefined;
      if (flags.agent !== "mlab" && (flags.llmModel || flags.retrieval)) throw new UserError("--llm-* and --retrieval are only for --agent mlab");
      const limits = limitsFromFlags({ timeLimit: flags.timeLimit, memory: flags.memory, cpus: flags.cpus, tmpSize: LIMIT_DEFAULTS.tmpSize });
      const backend = await backendFor(flags.sandbox);
      const controller = new AbortController();
      const onSigint = () => {
        process.stderr.write("\nstopping after the current step of each run (Ctrl-C again to force)\n");
        controller.abort();
        process.off("SIGINT", onSigint);
      };
      process.on("SIGINT", onSigint);
      const total = chosen.length * parsePositiveInt(flags.seeds, "--seeds");
      const bar = progressBar("research runs", flags.json);
      let done = 0;
      try {
        const { groupDir, records } = await runResearchGroup({
          tasks: chosen,
          seeds: parsePositiveInt(flags.seeds, "--seeds"),
          runsDir: path.resolve(flags.runsDir),
          dataDir,
          backend,
          limits,
          agent: flags.agent as (typeof AGENTS)[number],
          mlab,
          maxEnvSteps: maxSteps,
          execTimeoutMs: parseDuration(flags.execTimeout, "--exec-timeout"),
          concurrency: parsePositiveInt(flags.concurrency, "--concurrency"),
          signal: controller.signal,
          onRun: (e) => {
            if (e.kind === "end") {
              bar.update(++done, total);
              if (!process.stderr.isTTY && !flags.json) {
                process.stderr.write(`${e.record.task} seed ${e.record.seed}: ${e.record.status} after ${e.record.steps} steps${e.record.error ? ` (${e.record.error})` : ""}\n`);
              }
            }
          },
        });
        bar.stop();
        if (flags.json) process.stdout.write(JSON.stringify({ group_dir: groupDir, records }, null, 2) + "\n");
        else process.stdout.write(`${groupDir}\n`);
        if (controller.signal.aborted) return 130;
        return records.some((r) => r.status === "error" || r.status === "interrupted") ? EXIT.failed : EXIT.ok;
      } finally {
        process.off("SIGINT", onSigint);
      }
    }),
  );

  tasks
    .command("eval")
    .description(
      "score a run group made by `mlebench tasks run`: each run's final workspace and (subsampled) intermediate steps, by rerunning the task's " +
        "evaluator in a sandbox; writes <run>/eval.json and <group>/eval/summary.{json,md,html} (success rate at 5/10/15/20/30% improvement ± SEM, " +
        "improvement, tokens, cost, time, best-score curves)",
    )
    .argument("<group>", "run group directory")
    .option("--no-steps", "score only each run's final workspace, not its intermediate steps")
    .option("--max-steps <n>", "score at most this many steps per run, evenly subsampled", "50")
    .addOption(taskDataDirOption())
    .addOption(sandboxOption())
    .option("--time-limit <duration>", "wall-clock limit of one scoring sandbox", "2h")
    .option("--json", "print the summary JSON on stdout")
    .action(
      action(async (group: string, flags: { steps: boolean; maxSteps: string; dataDir?: string; sandbox?: string; timeLimit: string; json?: boolean }) => {
        const dataDir = resolveDataDir(flags.dataDir);
        const backend = await backendFor(flags.sandbox);
        const limits = limitsFromFlags({ timeLimit: flags.timeLimit });
        const bar = progressBar("scoring", flags.json);
        const summary = await evaluateGroup(path.resolve(group), {
          ctx: contextFor(dataDir, true),
          makeRunner: (workspace, task) => sandboxedTaskRunner(task, workspace, backend, limits),
          steps: flags.steps,
          maxSteps: parsePositiveInt(flags.maxSteps, "--max-steps"),
          onProgress: (p) => {
            if (p.total !== undefined && p.done !== undefined) bar.update(p.done, p.total);
          },
        });
        bar.stop();
        if (flags.json) {
          process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
          return;
        }
        for (const t of summary.tasks) {
          const s10 = t.success["10"];
          process.stdout.write(
            `${t.task}: ${t.runs} run(s), success@10% ${fmt(s10.mean * 100, 3)}% ± ${fmt(s10.sem * 100, 3)}, ` +
              `improvement ${t.improvement ? `${fmt(t.improvement.mean * 100, 3)}%` : "-"} over baseline ${fmt(t.baseline)}` +
              `${t.unscored ? `, ${t.unscored} unscored` : ""}${t.errors ? `, ${t.errors} error(s)` : ""}\n`,
          );
        }
        const dir = path.join(path.resolve(group), "eval");
        process.stdout.write(`${path.join(dir, "summary.md")}\n${path.join(dir, "summary.html")}\n${path.join(dir, "summary.json")}\n`);
      }),
    );
}
