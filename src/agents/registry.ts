import path from "node:path";
import { UserError } from "../core/errors.js";
import { SANDBOX_PATHS } from "../sandbox/types.js";
import { loadAgentConfigs, loadSecretsFile, resolveEnv, resolveKwargs } from "./config.js";
import { checkRunnable, upstreamCommand } from "./upstream-config.js";
import { aideAgent } from "./aide/index.js";
import { aideOptions, type AideRequest } from "./aide/options.js";
import { baselineAgent } from "./baseline/index.js";
import { dummyAgent } from "./dummy.js";
import { mlabAgent } from "./mlab/index.js";
import { mlabOptions, type MlabRequest } from "./mlab/options.js";
import { externalAgent } from "./external.js";
import type { Agent } from "./types.js";

/** Agents built into the package (others come from an --agent-config file). */
export const BUILTIN_AGENTS = ["dummy", "baseline", "external", "aide", "mlab"] as const;

/** How the CLI describes an agent to run. */
export interface AgentRequest {
  id: string;
  /** For "external": the command. */
  cmd?: string;
  /** Extra env vars (KEY=VALUE, values may reference ${{ secrets.NAME }}). */
  env?: string[];
  allowHosts?: string[];
  configFile?: string;
  secretsFile?: string;
  /** The Docker image to run in, over the config's `image` (`--agent-image`). */
  image?: string;
  /** For "aide": model, search and LLM recording settings. */
  aide?: AideRequest;
  /** For "mlab": model, steps, retrieval and LLM recording settings. */
  mlab?: MlabRequest;
}

function parseEnvFlags(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf("=");
    if (i <= 0) throw new UserError(`--env: "${p}" is not KEY=VALUE`);
    out[p.slice(0, i)] = p.slice(i + 1);
  }
  return out;
}

/** Build the agent a run asks for, resolving config entries and secrets. */
export function resolveAgent(req: AgentRequest): Agent {
  const secrets: Record<string, string | undefined> = req.secretsFile
    ? { ...process.env, ...loadSecretsFile(req.secretsFile) }
    : { ...process.env };
  const extraEnv = parseEnvFlags(req.env ?? []);
  const allow = req.allowHosts ?? [];
  if (req.configFile) {
    const configs = loadAgentConfigs(req.configFile);
    const c = configs.get(req.id);
    if (c) {
      const { env, secretNames } = resolveEnv({ ...c.env_vars, ...extraEnv }, secrets, req.id);
      // Upstream's start scripts swap the files themselves when OBFUSCATE is set, which a read-only
      // /home/data refuses; the harness lays the obfuscated files over the usual paths instead.
      const obfuscate = env.OBFUSCATE === "true";
      delete env.OBFUSCATE;
      if (c.upstream) checkRunnable(req.id, c.upstream);
      // Upstream passes kwargs on the start script's command line, secrets filled in as in env_vars.
      const cmd = c.upstream ? upstreamCommand(c.upstream, resolveKwargs(c.upstream.kwargs, secrets, req.id), SANDBOX_PATHS.agent) : c.cmd;
      return externalAgent({
        id: req.id,
        cmd: req.cmd ?? cmd,
        env,
        secretNames,
        allowHosts: [...c.network.allow, ...allow],
        dir: c.dir ? path.resolve(c.baseDir, c.dir) : undefined,
        image: req.image ?? c.image,
        obfuscate,
      });
    }
    if (!BUILTIN_AGENTS.includes(req.id as (typeof BUILTIN_AGENTS)[number])) {
      throw new UserError(
        `--agent: "${req.id}" is not in ${req.configFile} (agents there: ${[...configs.keys()].join(", ") || "none"}) nor built in (${BUILTIN_AGENTS.join(", ")})`,
      );
    }
  }
  const agent = builtinAgent(req, secrets, extraEnv, allow);
  if (req.image !== undefined) agent.image = req.image;
  return agent;
}

/** One of the agents built into the package. */
function builtinAgent(req: AgentRequest, secrets: Record<string, string | undefined>, extraEnv: Record<string, string>, allow: string[]): Agent {
  if (req.id === "dummy" || req.id === "baseline") {
    if (req.cmd) throw new UserError("--agent-cmd is only for --agent external (or an agent from --agent-config)");
    return req.id === "dummy" ? dummyAgent() : baselineAgent();
  }
  if (req.id === "aide") {
    if (req.cmd) throw new UserError("--agent-cmd is only for --agent external (or an agent from --agent-config)");
    return aideAgent(aideOptions(req.aide ?? {}, secrets));
  }
  if (req.id === "mlab") {
    if (req.cmd) throw new UserError("--agent-cmd is only for --agent external (or an agent from --agent-config)");
    return mlabAgent(mlabOptions(req.mlab ?? {}, secrets));
  }
  if (req.id === "external") {
    if (!req.cmd) throw new UserError('--agent external needs --agent-cmd "<command run inside the sandbox>"');
    const { env, secretNames } = resolveEnv(extraEnv, secrets, "external");
    return externalAgent({ id: "external", cmd: req.cmd, env, secretNames, allowHosts: allow });
  }
  throw new UserError(
    `--agent: unknown agent "${req.id}"; built in: ${BUILTIN_AGENTS.join(", ")}; others come from --agent-config <file>`,
  );
}
