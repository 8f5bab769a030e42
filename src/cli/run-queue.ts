import type { AgentRequest } from "../agents/registry.js";
import { BUILTIN_AGENTS } from "../agents/registry.js";
import { loadAgentConfigs } from "../agents/config.js";
import type { Competition } from "../core/competition.js";
import { UserError } from "../core/errors.js";
import { autoDisk, limitsFromFlags, parseDuration, parseGpus, parsePositiveInt, snapshotInterval, type LimitFlags } from "../sandbox/limits.js";
import { defaultSandbox, getSandboxBackend } from "../sandbox/registry.js";
import { jobAgent } from "../queue/jobs.js";
import { runOnQueue } from "../queue/producer.js";
import { locateGroup, openResultStore } from "../queue/store.js";
import { parseRedisUrl } from "../queue/url.js";
import { checkBackendFits } from "../runner/backend-fit.js";
import { requireObfuscatedDescription } from "../runner/obfuscate.js";
import { EXIT } from "./common.js";
import { summaryRow } from "./run-progress.js";

/** The `mlebench run` flags a queued run uses. */
export interface QueuedRunFlags extends LimitFlags {
  agent: string;
  agentCmd?: string;
  agentConfig?: string;
  agentImage?: string;
  secretsFile?: string;
  env: string[];
  allowHost: string[];
  seeds: string;
  workers: string;
  gpus: string;
  gpusPerRun?: string;
  pollInterval: string;
  sandbox?: string;
  runsDir: string;
  resume?: string;
  snapshotEvery?: string;
  obfuscate?: boolean;
  grade?: boolean;
  timeLimit: string;
  json?: boolean;
  queue?: string;
  detach?: boolean;
  maxAttempts: string;
}

/** Check what can be checked without the agent's secrets (each worker resolves those from its own environment). */
function checkAgent(req: AgentRequest): void {
  if (req.configFile && loadAgentConfigs(req.configFile).has(req.id)) return;
  if (!BUILTIN_AGENTS.includes(req.id as (typeof BUILTIN_AGENTS)[number])) {
    throw new UserError(`--agent: unknown agent "${req.id}"; built in: ${BUILTIN_AGENTS.join(", ")}; others come from --agent-config <file>`);
  }
  if (req.id === "external" && !req.cmd) throw new UserError('--agent external needs --agent-cmd "<command run inside the sandbox>"');
}

/** `mlebench run --queue URL`: enqueue the group's runs on Redis and follow them (or return at once with --detach). */
export async function runQueued<F extends QueuedRunFlags>(
  flags: F,
  pickCompetitions: (flags: F) => Competition[],
  llmAgentRequest: (flags: F) => Pick<AgentRequest, "aide" | "mlab">,
): Promise<number> {
  const url = parseRedisUrl(flags.queue!);
  if (flags.workers !== "1") throw new UserError("--workers is for local runs; with --queue, start `mlebench worker --concurrency N` on each machine");
  if (flags.gpusPerRun !== undefined) throw new UserError("--gpus-per-run is for local runs; with --queue, give it to each `mlebench worker`");
  const competitions = flags.resume ? [] : pickCompetitions(flags);
  const limits = limitsFromFlags(flags);
  const sandbox = flags.sandbox ?? defaultSandbox();
  getSandboxBackend(sandbox);
  const request: AgentRequest = {
    id: flags.agent,
    cmd: flags.agentCmd,
    env: flags.env,
    allowHosts: flags.allowHost,
    configFile: flags.agentConfig,
    image: flags.agentImage,
    ...llmAgentRequest(flags),
  };
  checkAgent(request);
  checkBackendFits(request, flags.obfuscate === true, sandbox);
  // An offline competition carries its own; an upstream one's comes with the metadata in each worker's data dir.
  if (flags.obfuscate) for (const c of competitions.filter((x) => x.offline)) requireObfuscatedDescription(c, "");
  const maxAttempts = parsePositiveInt(flags.maxAttempts, "--max-attempts");
  const { store, group } = flags.resume
    ? await locateGroup(flags.resume, flags.runsDir, {}, "--resume")
    : { store: await openResultStore(flags.runsDir), group: undefined };
  for (const w of await store.check()) process.stderr.write(`warning: ${w}\n`);
  const abort = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    if (++interrupts > 1) process.exit(130);
    process.stderr.write("\nstopped following; the runs go on on the workers (follow again with --resume <group dir>, or `mlebench status <group dir>`)\n");
    abort.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let result;
  try {
    result = await runOnQueue({
      url,
      store,
      resume: group,
      competitions,
      seeds: parsePositiveInt(flags.seeds, "--seeds"),
      template: {
        agent: jobAgent(request),
        limits,
        sandbox,
        gpus: parseGpus(flags.gpus),
        snapshot_every_ms: snapshotInterval(flags.snapshotEvery, limits.wallMs),
        grade: flags.grade === true,
        poll_ms: parseDuration(flags.pollInterval, "--poll-interval"),
        disk_auto: autoDisk(flags.disk),
        ...(flags.obfuscate ? { obfuscate: true } : {}),
      },
      maxAttempts,
      options: { sandbox, time_limit: flags.timeLimit, seeds: Number(flags.seeds), gpus: flags.gpus, limits, grade: flags.grade === true, queue: url.display, max_attempts: maxAttempts, ...(flags.obfuscate ? { obfuscate: true } : {}) },
      detach: flags.detach === true,
      progress: true,
      signal: abort.signal,
    });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (flags.json) {
    const runs = result.states.map((s) => ({
      ...summaryRow(s.record ?? { ...s, status: s.state, exit_reason: null, grading: null, error: s.state === "failed" ? s.reason : null }),
      worker: s.worker,
      attempts: s.attempts,
    }));
    process.stdout.write(JSON.stringify({ run_group: result.runGroup, dir: result.location, queue: url.display, finished: result.finished, runs }, null, 2) + "\n");
  } else {
    process.stdout.write(`${result.location}\n`);
  }
  if (interrupts > 0) return 130;
  if (!result.finished) return EXIT.ok;
  return result.states.some((s) => s.record?.status !== "completed") ? EXIT.failed : EXIT.ok;
}
