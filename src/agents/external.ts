import path from "node:path";
import type { Agent, AgentContext, AgentOutcome } from "./types.js";

/** What an external agent runs and brings. */
export interface ExternalAgentOptions {
  id: string;
  cmd: string;
  env: Record<string, string>;
  secretNames: string[];
  allowHosts: string[];
  /** Host dir copied into the agent's writable /home/agent before it starts. */
  dir?: string;
  /** Its own Docker image, if any. */
  image?: string;
  /** Asks for the obfuscated description and instructions. */
  obfuscate?: boolean;
}

/**
 * The folders upstream MLE-bench's agents find through variables: their own and the three the
 * harness keeps (paths as the sandbox sees them; COMPETITION_ID is in every run's environment).
 */
export function upstreamAgentEnv(ctx: AgentContext): Record<string, string> {
  const p = ctx.sandbox.paths;
  return { AGENT_DIR: p.agent, CODE_DIR: p.code, LOGS_DIR: p.logs, SUBMISSION_DIR: p.submission };
}

/** An agent that is any command run inside the sandbox (it may call LLM APIs through the allow-list). */
export function externalAgent(o: ExternalAgentOptions): Agent {
  return {
    id: o.id,
    env: o.env,
    secretNames: o.secretNames,
    allowHosts: o.allowHosts,
    files: {},
    agentDir: o.dir ? path.resolve(o.dir) : undefined,
    image: o.image,
    obfuscate: o.obfuscate,
    async run(ctx: AgentContext): Promise<AgentOutcome> {
      ctx.log(`agent command: ${o.cmd}`);
      const r = await ctx.sandbox.exec(["/bin/sh", "-c", o.cmd], {
        logFile: ctx.agentLog,
        cwd: ctx.sandbox.paths.workspace,
        env: upstreamAgentEnv(ctx),
      });
      return { reason: r.reason, exitCode: r.exitCode, signal: r.signal };
    },
  };
}
