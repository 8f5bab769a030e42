import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import {
  configSchemaError,
  isUpstreamEntry,
  isUpstreamFile,
  resolveUpstreamEntry,
  upstreamConfigFiles,
  type ResolvedUpstreamAgent,
} from "./upstream-config.js";

/** One agent in an agents config file (in the spirit of upstream's agents/<id>/config.yaml). */
export const AgentConfigSchema = z
  .object({
    /** Shell command run inside the sandbox (by /bin/sh -c). */
    cmd: z.string().min(1),
    /** Host dir with the agent's code, mounted read-only at /home/agent (relative to the config file). */
    dir: z.string().optional(),
    /** Environment; values may reference secrets as ${{ secrets.NAME }}. */
    env_vars: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    network: z.object({ allow: z.array(z.string()).default([]) }).strict().default({ allow: [] }),
    /** Docker image to run in (with --sandbox docker), built on the agents' image. */
    image: z.string().min(1).optional(),
  })
  .strict();
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

const FileSchema = z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/), z.unknown());

/** An agent from a config file; `upstream` is set for entries in upstream MLE-bench's format. */
export type LoadedAgentConfig = AgentConfig & { baseDir: string; upstream?: ResolvedUpstreamAgent };

/**
 * Read agents from `--agent-config`: a YAML file mapping agent id to its config, in this
 * project's format ({cmd, dir, env_vars, network}) or upstream's ({start, kwargs, ...}), or an
 * upstream `agents/` folder (every `<id>/config.yaml` in it).
 */
export function loadAgentConfigs(file: string): Map<string, LoadedAgentConfig> {
  let isDir = false;
  try {
    isDir = fs.statSync(file).isDirectory();
  } catch (e) {
    throw new UserError(`--agent-config: cannot read ${file}: ${(e as Error).message}`);
  }
  if (!isDir) return loadConfigFile(file);
  const files = upstreamConfigFiles(file);
  if (files.length === 0) throw new UserError(`--agent-config: ${file} is a folder without any <id>/config.yaml (an upstream agents folder has them)`);
  const out = new Map<string, LoadedAgentConfig>();
  for (const f of files) for (const [id, c] of loadConfigFile(f)) out.set(id, c);
  return out;
}

function loadConfigFile(file: string): Map<string, LoadedAgentConfig> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserError(`--agent-config: cannot read ${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = YAML.parse(text, { merge: true });
  } catch (e) {
    throw new UserError(`--agent-config: ${file} is not valid YAML: ${(e as Error).message}`);
  }
  const top = FileSchema.safeParse(raw ?? {});
  if (!top.success) throw configSchemaError(file, top.error);
  const baseDir = path.dirname(path.resolve(file));
  const out = new Map<string, LoadedAgentConfig>();
  const upstreamFile = isUpstreamFile(top.data);
  for (const [id, entry] of Object.entries(top.data)) {
    // In upstream's files, entries without a start script only hold YAML anchors for the others.
    if (upstreamFile && !isUpstreamEntry(entry)) continue;
    if (isUpstreamEntry(entry)) {
      const upstream = resolveUpstreamEntry(id, entry, file);
      out.set(id, { cmd: "", dir: path.dirname(upstream.startFile), env_vars: upstream.env_vars, network: { allow: [] }, image: upstream.image, baseDir, upstream });
      continue;
    }
    const parsed = AgentConfigSchema.safeParse(entry);
    if (!parsed.success) throw configSchemaError(file, parsed.error, [id]);
    out.set(id, { ...parsed.data, baseDir });
  }
  return out;
}

/** Parse a dotenv-style secrets file (KEY=VALUE lines, # comments, optional quotes). */
export function loadSecretsFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserError(`--secrets-file: cannot read ${file}: ${(e as Error).message}`);
  }
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, i) => {
    const t = line.trim();
    if (!t || t.startsWith("#")) return;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(t);
    if (!m) throw new UserError(`--secrets-file: ${file}, line ${i + 1}: expected KEY=VALUE`);
    let v = m[2];
    if (/^(["']).*\1$/.test(v)) v = v.slice(1, -1);
    out[m[1]] = v;
  });
  return out;
}

const SECRET_REF = /\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * Resolve an agent's env vars: secret references are filled from `secrets`; returns the env and
 * the names of variables that carry secrets (so logs record names, never values).
 */
export function resolveEnv(
  vars: Record<string, string | number | boolean>,
  secrets: Record<string, string | undefined>,
  agentId: string,
): { env: Record<string, string>; secretNames: string[] } {
  const env: Record<string, string> = {};
  const secretNames: string[] = [];
  for (const [k, v] of Object.entries(vars)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new UserError(`agent "${agentId}": "${k}" is not a valid environment variable name`);
    const filled = fillSecrets(v, secrets, `agent "${agentId}": env var ${k}`);
    env[k] = filled.text;
    if (filled.usesSecret) secretNames.push(k);
  }
  return { env, secretNames };
}

/** An upstream agent's kwargs as strings, secret references filled in like env vars'. */
export function resolveKwargs(kwargs: Record<string, string | number | boolean>, secrets: Record<string, string | undefined>, agentId: string): Record<string, string> {
  return Object.fromEntries(Object.entries(kwargs).map(([k, v]) => [k, fillSecrets(v, secrets, `agent "${agentId}": kwarg ${k}`).text]));
}

function fillSecrets(value: string | number | boolean, secrets: Record<string, string | undefined>, what: string): { text: string; usesSecret: boolean } {
  let usesSecret = false;
  const text = String(value).replace(SECRET_REF, (_m, name: string) => {
    usesSecret = true;
    const secret = secrets[name];
    if (secret === undefined || secret === "") {
      throw new UserError(`${what} needs secret ${name}, which is not set; export ${name}=... or put it in a --secrets-file`);
    }
    return secret;
  });
  return { text, usesSecret };
}
