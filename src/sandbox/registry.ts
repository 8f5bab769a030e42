import { UserError } from "../core/errors.js";
import { bwrapBackend } from "./bwrap.js";
import { dockerBackend } from "./docker.js";
import { localBackend } from "./local.js";
import type { SandboxBackend } from "./types.js";

/** Sandbox backends by the name `--sandbox` takes. */
export const SANDBOX_BACKENDS: ReadonlyMap<string, SandboxBackend> = new Map<string, SandboxBackend>([
  ["bwrap", bwrapBackend],
  ["docker", dockerBackend],
  ["local", localBackend],
]);

/** The backend used when `--sandbox` is not given. */
export function defaultSandbox(): string {
  return process.platform === "linux" ? "bwrap" : "docker";
}

/** Look a backend up by name, with the list of valid names on a typo. */
export function getSandboxBackend(name: string): SandboxBackend {
  const b = SANDBOX_BACKENDS.get(name);
  if (!b) throw new UserError(`--sandbox: unknown backend "${name}"; choose one of ${[...SANDBOX_BACKENDS.keys()].join(", ")}`);
  return b;
}
