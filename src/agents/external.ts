import path from "node:path";
import type { Agent, AgentContext, AgentOutcome } from "./types.js";

/** What an external agent runs and brings. */
export interface ExternalAgentOptions {
  id: string;
  cmd: string;
  env: Record<string, string>;
  secretNames: string[];
  allowHosts: string[];
  /** Host dir mounted read-only at /home/agent. */
  dir?: string;
}

/** Where an external agent's own code is mounted inside the sandbox. */
export const AGENT_DIR = "/home/agent";

/** An agent that is any command run inside the sandbox (it may call LLM APIs through the allow-list). */
export function externalAgent(o: ExternalAgentOptions): Agent {
  return {
    id: o.id,
    env: o.env,
    secretNames: o.secretNames,
    allowHosts: o.allowHosts,
    files: o.dir ? { [AGENT_DIR]: path.resolve(o.dir) } : {},
    async run(ctx: AgentContext): Promise<AgentOutcome> {
      ctx.log(`agent command: ${o.cmd}`);
      const r = await ctx.sandbox.exec(["/bin/sh", "-c", o.cmd], {
        logFile: ctx.agentLog,
        cwd: ctx.sandbox.paths.workspace,
      });
      return { reason: r.reason, exitCode: r.exitCode, signal: r.signal };
    },
  };
}
