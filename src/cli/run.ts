import fs from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import type { AideRequest } from "../agents/aide/options.js";
import type { MlabRequest } from "../agents/mlab/options.js";
import { resolveAgent } from "../agents/registry.js";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { competitionPaths, resolveDataDir } from "../core/paths.js";
import { competitionsInSplit, getCompetition, readCompetitionList } from "../competitions/registry.js";
import { RunGroup } from "../runner/group.js";
import { autoDisk, LIMIT_DEFAULTS, limitsFromFlags, parseDuration, parseGpus, parsePositiveInt, snapshotInterval } from "../sandbox/limits.js";
import { requireGpus } from "../sandbox/bwrap.js";
import { LOCAL_WARNING } from "../sandbox/local.js";
import { checkBackendFits } from "../runner/backend-fit.js";
import { requireObfuscatedDescription } from "../runner/obfuscate.js";
import { defaultSandbox, getSandboxBackend, SANDBOX_BACKENDS } from "../sandbox/registry.js";
import { EXIT, action, dataDirOption } from "./common.js";
import { addLlmOptions, LLM_FLAG_KEYS, llmRequestFromFlags, numberFlag, type LlmFlags } from "./llm-flags.js";
import { runProgressView, summaryRow } from "./run-progress.js";
import { isS3Url } from "../queue/s3-url.js";
import type { QueuedRunFlags } from "./run-queue.js";
import { gpuPool } from "../runner/gpu-pool.js";
import { summaryOf } from "./command-help.js";

interface RunFlags extends LlmFlags, QueuedRunFlags {
  competition?: string[];
  split?: string;
  competitionList?: string;
  pids: string;
  tmpSize: string;
  outputLimit: string;
  dataDir?: string;
  aideSteps?: string;
  aideDrafts?: string;
  aideDebugProb?: string;
  aideMaxDebugDepth?: string;
  aideExecTimeout?: string;
  mlabSteps?: string;
  mlabRetrieval?: boolean;
  mlabExecTimeout?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `mlebench run`: run an agent on competitions in sandboxes, as a resumable run group. */
export function register(program: Command): void {
  const cmd = program
    .command("run")
    .summary(summaryOf("run"))
    .description(
      "Run an agent on one or more prepared competitions, each seed in its own sandbox with only the public data, " +
        "a validation server that says valid/invalid, and limits on time, memory, processes, CPUs and disk. Results go " +
        "to <runs-dir>/<timestamp>_run-group_<agent>/<competition>_<uuid>/ (submission/, code/, logs/, snapshots/, " +
        "run.log, run.json) with metadata.json for the group, as upstream MLE-bench lays them out.",
    )
    .requiredOption("--agent <id>", "agent to run: dummy, baseline, aide or mlab (with --llm-model), external (with --agent-cmd), or an id from --agent-config")
    .option("-c, --competition <id...>", "competition id(s)")
    .option("--split <name>", "every competition of a split (e.g. offline, offline-lite, lite)")
    .option("-l, --competition-list <file>", "a text file with one competition id per line (upstream's --competition-set)")
    .option("--seeds <n>", "runs per competition", "1")
    .option("--workers <n>", "runs at the same time", "1")
    .option("--time-limit <duration>", "wall-clock limit per run, e.g. 24h, 90m, 30s", LIMIT_DEFAULTS.timeLimit)
    .option("--memory <size>", "memory limit per run (cgroups), e.g. 16G (default: unlimited)")
    .option("--pids <n>", "most processes and threads a run may have at once", LIMIT_DEFAULTS.pids)
    .option("--cpus <n>", "CPUs a run may use (default: all)")
    .option(
      "--disk <size>",
      "cap on the disk a run's writable dirs take, e.g. 50G; 'none' for no cap; as root the dirs get a filesystem of that size of their own " +
        "(default 'auto': 80% of the free space where the run dirs are, shared by the --workers runs)",
    )
    .option("--tmp-size <size>", "size of the in-memory /tmp and /dev/shm", LIMIT_DEFAULTS.tmpSize)
    .option("--output-limit <size>", "agent stdout+stderr kept in logs/agent.log", LIMIT_DEFAULTS.outputLimit)
    .option("--gpus <list>", "NVIDIA GPU indices to pass through, e.g. 0,1 (default: none, CPU only)", "none")
    .option("--gpus-per-run <n>", "share --gpus out among the runs going on at once: each holds n of them (default: every run gets every GPU)")
    .option("--poll-interval <duration>", "how often disk use and process counts are sampled (the --disk cap is checked then)", "10s")
    .addOption(
      new Option("--sandbox <backend>", `isolation backend (default: ${defaultSandbox()})`).choices([...SANDBOX_BACKENDS.keys()]),
    )
    .option("--runs-dir <dir>", "where run groups are created; with --queue also s3://bucket[/prefix] (an S3-compatible bucket shared with the workers)", "runs")
    .option("--resume <dir>", "continue a run group (its dir; with --queue also its s3:// URL or its name in --runs-dir): keep finished runs, rerun unfinished ones")
    .option("--snapshot-every <duration>", "copy submission.csv into snapshots/ this often (default: 1/24 of the time limit; 'never' disables)")
    .option("--grade", "grade each run's submission when it ends (writes grading_report.json)")
    .option("--obfuscate", "give agents the obfuscated description (description_obfuscated.md: no competition, dataset or Kaggle named) and instructions, as the paper's contamination ablation; refused for a competition that has none")
    .option("--agent-cmd <command>", "for --agent external: the shell command run inside the sandbox")
    .option("--agent-config <file>", "YAML file of agents: id → {cmd, dir, env_vars, network: {allow}}; or upstream MLE-bench's agents/ folder or one of its config.yaml files (id → {start, kwargs, kwargs_type, env_vars})")
    .option("--agent-image <image>", "with --sandbox docker: the Docker image the agent runs in (its own, built FROM mlebench-agent), over the config's `image`")
    .option("--secrets-file <file>", "KEY=VALUE file for ${{ secrets.NAME }} references (default: the environment)")
    .option("--env <KEY=VALUE>", "extra environment variable for the agent (repeatable)", collect, [])
    .option("--allow-host <host>", "let the agent reach this host through the egress proxy, e.g. api.openai.com (repeatable)", collect, []);
  addLlmOptions(cmd, "for --agent aide or mlab");
  cmd
    .option("--aide-steps <n>", "for --agent aide: programs written, run and reviewed (default: 20)")
    .option("--aide-drafts <n>", "for --agent aide: first drafts before debugging or improving (default: 5)")
    .option("--aide-debug-prob <p>", "for --agent aide: chance of debugging a failed leaf at each later step (default: 0.5)")
    .option("--aide-max-debug-depth <n>", "for --agent aide: longest chain of fixes still extended (default: 3)")
    .option("--aide-exec-timeout <duration>", "for --agent aide: time limit of each program, e.g. 30m (default: 1h, never past the run's limit)")
    .option("--mlab-steps <n>", "for --agent mlab: most research-agent steps, which is also the action environment's step limit (default: 50)")
    .option("--mlab-retrieval", "for --agent mlab: keep a research log of step summaries and show its relevant part instead of older steps")
    .option("--mlab-exec-timeout <duration>", "for --agent mlab: time limit of each Execute Script, e.g. 30m (default: 1h, never past the run's limit)")
    .addOption(dataDirOption())
    .option("--json", "print a JSON summary of the group on stdout")
    .option("--queue <url>", "enqueue the runs on Redis (redis://[user:password@]host:port[/db]) for `mlebench worker`s on any machine, and follow them; --runs-dir must be shared with the workers (a shared filesystem or s3://)")
    .option("--detach", "with --queue: return once the runs are enqueued (see them with `mlebench status <group>`)")
    .option("--max-attempts <n>", "with --queue: tries per run, lost workers included, before it ends as failed", "3")
    .action(
      action(async (flags: RunFlags) => {
        // The queue's clients (BullMQ, Redis, S3) load only for a queued run.
        if (flags.queue !== undefined) return (await import("./run-queue.js")).runQueued(flags, pickCompetitions, llmAgentRequest);
        if (flags.detach) throw new UserError("--detach is only for --queue");
        if (isS3Url(flags.runsDir) || (flags.resume !== undefined && isS3Url(flags.resume))) {
          throw new UserError("s3:// run groups are for queued runs: add --queue redis://… and start `mlebench worker`s, or give a local --runs-dir");
        }
        const dataDir = resolveDataDir(flags.dataDir);
        const competitions = flags.resume ? [] : pickCompetitions(flags);
        for (const c of competitions) requirePrepared(c, dataDir);
        const limits = limitsFromFlags(flags);
        const backendName = flags.sandbox ?? defaultSandbox();
        const backend = getSandboxBackend(backendName);
        const problem = await backend.unavailable();
        if (problem) throw new UserError(`--sandbox ${backendName}: ${problem}`);
        if (backendName === "local") process.stderr.write(`${LOCAL_WARNING}\n`);
        const gpus = parseGpus(flags.gpus);
        if (backendName !== "docker") requireGpus(gpus);
        const workers = parsePositiveInt(flags.workers, "--workers");
        const perRun = flags.gpusPerRun === undefined ? undefined : parsePositiveInt(flags.gpusPerRun, "--gpus-per-run");
        const pool = gpuPool(gpus, perRun, workers, "--workers");
        const agent = resolveAgent({
          id: flags.agent,
          cmd: flags.agentCmd,
          env: flags.env,
          allowHosts: flags.allowHost,
          configFile: flags.agentConfig,
          secretsFile: flags.secretsFile,
          image: flags.agentImage,
          ...llmAgentRequest(flags),
        });
        const obfuscate = flags.obfuscate === true || agent.obfuscate === true;
        checkBackendFits(agent, obfuscate, backendName);
        if (obfuscate) for (const c of competitions) requireObfuscatedDescription(c, dataDir);
        const snapshotEveryMs = snapshotInterval(flags.snapshotEvery, limits.wallMs);
        const group = new RunGroup(
          {
            settings: { agent, backend, dataDir, limits, gpus,
              snapshotEveryMs,
              diskAuto: autoDisk(flags.disk) ? { share: workers } : undefined,
              grade: flags.grade === true,
              pollMs: parseDuration(flags.pollInterval, "--poll-interval"),
              obfuscate: flags.obfuscate === true,
            },
            competitions,
            seeds: parsePositiveInt(flags.seeds, "--seeds"),
            workers,
            gpuPool: pool,
            runsDir: path.resolve(flags.runsDir),
            resume: flags.resume,
            options: {
              sandbox: backendName,
              time_limit: flags.timeLimit,
              seeds: Number(flags.seeds),
              gpus: flags.gpus,
              gpus_per_run: perRun ?? null,
              limits,
              grade: flags.grade === true,
              ...(obfuscate ? { obfuscate: true } : {}),
            },
          },
          (e) => view.onEvent(e),
        );
        const view = runProgressView(true);
        let interrupts = 0;
        const onSignal = () => {
          interrupts++;
          if (interrupts > 1) process.exit(130);
          process.stderr.write("\nstopping: interrupting running runs (again to quit at once; --resume continues later)\n");
          void group.stop();
        };
        process.on("SIGINT", onSignal);
        process.on("SIGTERM", onSignal);
        let result;
        try {
          result = await group.run();
        } finally {
          view.stop();
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
        }
        if (flags.json) {
          const runs = result.records.map(summaryRow);
          process.stdout.write(JSON.stringify({ run_group: result.runGroup, dir: result.groupDir, runs }, null, 2) + "\n");
        } else {
          process.stdout.write(`${result.groupDir}\n`);
        }
        if (interrupts > 0) return 130;
        return result.records.some((r) => r.status !== "completed") ? EXIT.failed : EXIT.ok;
      }),
    );
}

const AIDE_FLAGS = ["aideSteps", "aideDrafts", "aideDebugProb", "aideMaxDebugDepth", "aideExecTimeout"] as const;
const MLAB_FLAGS = ["mlabSteps", "mlabRetrieval", "mlabExecTimeout"] as const;

function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The --llm-* flags (aide and mlab), --aide-* (aide only) and --mlab-* (mlab only), refused for other agents. */
function llmAgentRequest(flags: RunFlags): { aide?: AideRequest; mlab?: MlabRequest } {
  const misplaced = (keys: readonly (keyof RunFlags)[], agents: string[]) => {
    const given = keys.find((k) => flags[k] !== undefined);
    if (given !== undefined && !agents.includes(flags.agent)) throw new UserError(`${flagName(given)} is only for --agent ${agents.join(" or ")}`);
  };
  misplaced(LLM_FLAG_KEYS, ["aide", "mlab"]);
  misplaced(AIDE_FLAGS, ["aide"]);
  misplaced(MLAB_FLAGS, ["mlab"]);
  if (flags.agent !== "aide" && flags.agent !== "mlab") return {};
  const int = (text: string | undefined, flag: string) => (text === undefined ? undefined : parsePositiveInt(text, flag));
  const duration = (text: string | undefined, flag: string) => (text === undefined ? undefined : parseDuration(text, flag));
  const llm = llmRequestFromFlags(flags);
  if (flags.agent === "mlab") {
    return {
      mlab: {
        ...llm,
        steps: int(flags.mlabSteps, "--mlab-steps"),
        retrieval: flags.mlabRetrieval,
        execTimeoutMs: duration(flags.mlabExecTimeout, "--mlab-exec-timeout"),
      },
    };
  }
  return {
    aide: {
      ...llm,
      steps: int(flags.aideSteps, "--aide-steps"),
      numDrafts: int(flags.aideDrafts, "--aide-drafts"),
      debugProb: numberFlag(flags.aideDebugProb, "--aide-debug-prob"),
      maxDebugDepth: numberFlag(flags.aideMaxDebugDepth, "--aide-max-debug-depth"),
      execTimeoutMs: duration(flags.aideExecTimeout, "--aide-exec-timeout"),
    },
  };
}

function pickCompetitions(flags: RunFlags): Competition[] {
  const modes = [flags.competition, flags.split, flags.competitionList].filter((x) => x !== undefined).length;
  if (modes !== 1) throw new UserError("Say what to run with exactly one of -c <id...>, --split <name>, -l <file> (or --resume <dir>).");
  if (flags.competition) return flags.competition.map(getCompetition);
  if (flags.split) return competitionsInSplit(flags.split);
  const file = flags.competitionList!;
  return readCompetitionList(file, "--competition-list").map(({ id, line }) => {
    try {
      return getCompetition(id);
    } catch (e) {
      throw new UserError(`--competition-list: ${file}, line ${line}: ${(e as Error).message}`);
    }
  });
}

function requirePrepared(c: Competition, dataDir: string): void {
  if (!fs.existsSync(competitionPaths(dataDir, c.id).public)) {
    throw new UserError(`"${c.id}" is not prepared in ${dataDir}; run: mlebench prepare -c ${c.id} --data-dir ${dataDir}`);
  }
}
