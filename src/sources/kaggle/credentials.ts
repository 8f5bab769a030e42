/**
 * Kaggle API credentials: where they come from, how they are sent, and how to talk about them
 * without ever printing the secret itself.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UserError } from "../../core/errors.js";

/** Credentials for the Kaggle API; `source` says where they were found, for messages. */
export type KaggleAuth =
  | { kind: "basic"; username: string; key: string; source: string }
  | { kind: "bearer"; token: string; source: string };

const KAGGLE_JSON_SHAPE =
  'expected a JSON object {"username": "<your Kaggle username>", "key": "<your API key>"} ' +
  "(kaggle.com → Settings → API → Create New Token downloads one)";

// An empty variable is treated as unset, as shells often export VAR= to "clear" it.
function nonEmpty(value: string | undefined): string | undefined {
  const t = value?.trim();
  return t ? t : undefined;
}

// Paths under the home directory are shown as ~/… so messages read the same on every machine.
function tildify(file: string, home: string): string {
  const rel = path.relative(home, file);
  return home && rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? path.join("~", rel) : file;
}

/** The kaggle.json {@link loadKaggleCredentials} reads: $KAGGLE_CONFIG_DIR/kaggle.json, else ~/.kaggle/kaggle.json. */
export function kaggleJsonPath(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const dir = nonEmpty(env.KAGGLE_CONFIG_DIR);
  return dir ? path.join(dir, "kaggle.json") : path.join(home, ".kaggle", "kaggle.json");
}

/**
 * Find Kaggle credentials: KAGGLE_API_TOKEN, then KAGGLE_USERNAME + KAGGLE_KEY, then kaggle.json;
 * null when there are none, a UserError when what is there is unusable.
 */
export function loadKaggleCredentials(
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): KaggleAuth | null {
  const token = nonEmpty(env.KAGGLE_API_TOKEN);
  if (token) return { kind: "bearer", token, source: "KAGGLE_API_TOKEN" };

  const username = nonEmpty(env.KAGGLE_USERNAME);
  const key = nonEmpty(env.KAGGLE_KEY);
  if (username && key) return { kind: "basic", username, key, source: "KAGGLE_USERNAME/KAGGLE_KEY" };
  // Half a pair is almost always a typo; silently using some other credentials would hide it.
  if (username || key) {
    const [set, unset] = username ? ["KAGGLE_USERNAME", "KAGGLE_KEY"] : ["KAGGLE_KEY", "KAGGLE_USERNAME"];
    throw new UserError(`${set} is set but ${unset} is not: set both, or unset ${set} to use kaggle.json.`);
  }

  const file = kaggleJsonPath(env, home);
  const shown = tildify(file, home);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw new UserError(`Cannot read the Kaggle credentials file ${shown}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // The parser's own message may quote the file's text, which holds the key, so it is not repeated.
    throw new UserError(`The Kaggle credentials file ${shown} is not valid JSON; ${KAGGLE_JSON_SHAPE}.`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new UserError(`The Kaggle credentials file ${shown} does not hold a JSON object; ${KAGGLE_JSON_SHAPE}.`);
  }
  const record = data as Record<string, unknown>;
  for (const field of ["username", "key"]) {
    const v = record[field];
    if (typeof v !== "string" || v.trim() === "") {
      throw new UserError(
        `The Kaggle credentials file ${shown} has no non-empty "${field}" string; ${KAGGLE_JSON_SHAPE}.`,
      );
    }
  }
  return {
    kind: "basic",
    username: (record.username as string).trim(),
    key: (record.key as string).trim(),
    source: shown,
  };
}

/** The Authorization header value for these credentials. */
export function authHeader(auth: KaggleAuth): string {
  return auth.kind === "bearer"
    ? `Bearer ${auth.token}`
    : `Basic ${Buffer.from(`${auth.username}:${auth.key}`, "utf8").toString("base64")}`;
}

/** A human description of the credentials that names the account and source but never the secret. */
export function describeAuth(auth: KaggleAuth): string {
  return auth.kind === "bearer" ? `API token from ${auth.source}` : `user ${auth.username} from ${auth.source}`;
}

/** Every string that would reveal the secret if it appeared in output (raw and as sent on the wire). */
export function secretsOf(auth: KaggleAuth): string[] {
  const header = authHeader(auth);
  const encoded = header.slice(header.indexOf(" ") + 1);
  return auth.kind === "bearer" ? [auth.token, encoded] : [auth.key, encoded];
}

/** What to tell a user who has no credentials: the three ways to provide them and where to get a key. */
export function missingCredentialsMessage(): string {
  return [
    "No Kaggle API credentials found. Provide them in one of three ways:",
    "  1. set KAGGLE_API_TOKEN to a Kaggle API token;",
    "  2. set both KAGGLE_USERNAME and KAGGLE_KEY;",
    '  3. save {"username": "<your Kaggle username>", "key": "<your API key>"} as ~/.kaggle/kaggle.json',
    "     (or $KAGGLE_CONFIG_DIR/kaggle.json) and make it private: chmod 600 ~/.kaggle/kaggle.json.",
    "To get a key: sign in at https://www.kaggle.com, open Settings → API → Create New Token;",
    "this downloads a kaggle.json you can use as is.",
  ].join("\n");
}
