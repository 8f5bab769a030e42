import type { Competition } from "../core/competition.js";
import type { ExitReason, Sandbox } from "../sandbox/types.js";

/** What an agent gets for one run. */
export interface AgentContext {
  sandbox: Sandbox;
  competition: Competition;
  /** The instructions text, also at sandbox.paths.instructions. */
  instructions: string;
  seed: number;
  /** Wall-clock end of the run (epoch ms), or Infinity. */
  deadline: number;
  /**
   * Host folders behind the sandbox's paths, for agents that work on files from the harness side
   * (the research agent): the competition's public data (read-only) and the run's writable folders.
   * `description` is the file the agent sees as data/description.md (the obfuscated one under --obfuscate).
   */
  hostPaths: { data: string; submission: string; code: string; logs: string; workspace: string; description?: string };
  /**
   * Host folder for the agent's records (journals, LLM calls, traces), outside every sandbox mount
   * so the agent cannot redirect or rewrite them; moved into the run's logs/ once the agent is gone.
   */
  records: string;
  /** Host path of the agent's output log (agent.log in `records`, logs/agent.log after the run). */
  agentLog: string;
  /** Harness log for the run (run.log). */
  log(message: string): void;
}

/** How an agent's run ended, from the agent's side. */
export interface AgentOutcome {
  reason: ExitReason;
  exitCode: number | null;
  signal: string | null;
}

/** Files an agent brings into the sandbox, read-only: sandbox path → host path. */
export type AgentFiles = Record<string, string>;

/** An agent: what it needs from the sandbox, and how it runs. */
export interface Agent {
  id: string;
  /** Environment variables for the agent's processes (secrets already resolved). */
  env: Record<string, string>;
  /** Names of env vars holding secrets, recorded in run.json instead of their values. */
  secretNames: string[];
  /** Hosts reachable through the egress proxy (empty: no network). */
  allowHosts: string[];
  /** Read-only files and dirs the agent brings. */
  files: AgentFiles;
  /** Host folder of the agent's code, copied into its writable folder (/home/agent) before it starts. */
  agentDir?: string;
  /** The Docker image the agent runs in (`--sandbox docker` only); default the agents' image. */
  image?: string;
  /** Asks for the obfuscated description and instructions (upstream's `OBFUSCATE: "true"`). */
  obfuscate?: boolean;
  run(ctx: AgentContext): Promise<AgentOutcome>;
}
