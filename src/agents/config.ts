import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { z } from "zod";
import { UserError } from "../core/errors.js";

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
  })
  .strict();
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

const FileSchema = z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/), AgentConfigSchema);

/** Read an agents config file: a mapping from agent id to its config. */
export function loadAgentConfigs(file: string): Map<string, AgentConfig & { baseDir: string }> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserError(`--agent-config: cannot read ${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = YAML.parse(text);
  } catch (e) {
    throw new UserError(`--agent-config: ${file} is not valid YAML: ${(e as Error).message}`);
  }
  const parsed = FileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`--agent-config: ${file}: at ${issue.path.join(".") || "top level"}: ${issue.message}`);
  }
  const baseDir = path.dirname(path.resolve(file));
  return new Map(Object.entries(parsed.data).map(([id, c]) => [id, { ...c, baseDir }]));
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
    let usesSecret = false;
    env[k] = String(v).replace(SECRET_REF, (_m, name: string) => {
      usesSecret = true;
      const value = secrets[name];
      if (value === undefined || value === "") {
        throw new UserError(
          `agent "${agentId}": env var ${k} needs secret ${name}, which is not set; export ${name}=... or put it in a --secrets-file`,
        );
      }
      return value;
    });
    if (usesSecret) secretNames.push(k);
  }
  return { env, secretNames };
}
