/**
 * Upstream MLE-bench's agent registry format: an `agents/` folder whose `<id>/config.yaml` files
 * map agent ids to `{start, dockerfile, kwargs, kwargs_type, env_vars, privileged}`, `start` being
 * relative to the agents folder. An entry becomes an agent that runs `bash /home/agent/<start>`
 * with its kwargs passed as upstream passes them, its folder copied into /home/agent. One key is
 * this project's: `image`, the Docker image built from the entry's Dockerfile (upstream builds
 * it by name; here the user builds it and names it).
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.js";

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** The error for an agents config that does not fit its schema: the file, where in it, and what was expected. */
export function configSchemaError(file: string, error: z.ZodError, under: string[] = []): UserError {
  const issue = error.issues[0];
  return new UserError(`--agent-config: ${file}: at ${[...under, ...issue.path].join(".") || "top level"}: ${issue.message}`);
}

/** One entry of an upstream config.yaml. */
export const UpstreamAgentSchema = z
  .object({
    start: z.string().min(1),
    dockerfile: z.string().optional(),
    kwargs: z.record(z.string(), Scalar).default({}),
    kwargs_type: z.enum(["argparse", "omegaconf"]).optional(),
    env_vars: z.record(z.string(), Scalar).default({}),
    privileged: z.boolean().default(false),
    image: z.string().min(1).optional(),
  })
  .strict();
export type UpstreamAgent = z.infer<typeof UpstreamAgentSchema>;

/** An upstream entry with its start script found on the host. */
export interface ResolvedUpstreamAgent extends UpstreamAgent {
  /** Host path of the start script. */
  startFile: string;
  /** The config file it came from, for messages. */
  configFile: string;
}

/** Refuse what no sandbox here grants (checked for the agent a run picks, not for every entry of a folder). */
export function checkRunnable(id: string, entry: ResolvedUpstreamAgent): void {
  if (entry.privileged) throw new UserError(`--agent-config: ${entry.configFile}: agent "${id}" asks to run privileged, which no sandbox here grants`);
}

/** Whether a parsed config entry is in upstream's format (it names a start script, not a cmd). */
export function isUpstreamEntry(entry: unknown): boolean {
  return typeof entry === "object" && entry !== null && "start" in entry && !("cmd" in entry);
}

/** Whether a parsed config file is upstream's: some entry names a start script (others, like aide's `vars`, only hold YAML anchors). */
export function isUpstreamFile(entries: Record<string, unknown>): boolean {
  return Object.values(entries).some(isUpstreamEntry);
}

/** Check an upstream entry and find its start script: relative to the agents folder (the config's grandparent), else to the config's own folder. */
export function resolveUpstreamEntry(id: string, raw: unknown, configFile: string): ResolvedUpstreamAgent {
  const parsed = UpstreamAgentSchema.safeParse(raw);
  if (!parsed.success) throw configSchemaError(configFile, parsed.error, [id]);
  const entry = parsed.data;
  if (Object.keys(entry.kwargs).length > 0 && entry.kwargs_type === undefined) {
    throw new UserError(`--agent-config: ${configFile}: agent "${id}" has kwargs but no kwargs_type (argparse or omegaconf), as upstream requires`);
  }
  const configDir = path.dirname(path.resolve(configFile));
  const candidates = [path.resolve(configDir, "..", entry.start), path.resolve(configDir, entry.start)];
  const startFile = candidates.find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
  if (!startFile) {
    throw new UserError(`--agent-config: ${configFile}: agent "${id}": start script ${entry.start} not found (looked for ${candidates.join(" and ")})`);
  }
  return { ...entry, startFile, configFile };
}

/** The config files of an upstream agents folder: `<folder>/<id>/config.yaml`, sorted. */
export function upstreamConfigFiles(agentsDir: string): string[] {
  return fs
    .readdirSync(agentsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(agentsDir, d.name, "config.yaml")))
    .map((d) => path.join(agentsDir, d.name, "config.yaml"))
    .sort();
}

/** Quote a word for /bin/sh. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command upstream runs for an entry: bash on its start script, then its kwargs (secrets already filled in). */
export function upstreamCommand(entry: ResolvedUpstreamAgent, kwargs: Record<string, string>, agentDir: string): string {
  const words = ["bash", path.posix.join(agentDir, path.basename(entry.startFile))];
  for (const [key, value] of Object.entries(kwargs)) {
    if (entry.kwargs_type === "argparse") words.push(`--${key}`, value);
    else words.push(`${key}=${value}`);
  }
  return words.map(shellWord).join(" ");
}
