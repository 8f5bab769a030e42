import type { Sandbox, SandboxSpec } from "../../src/sandbox/types.js";
import { localBackend } from "../../src/sandbox/local.js";
import { tempDir } from "./data-dir.js";

/** No limits but the output cap: tests of agents and environments do not test the limits. */
export const NO_LIMITS: SandboxSpec["limits"] = { wallMs: null, memoryBytes: null, pids: null, cpus: null, diskBytes: null, tmpBytes: null, outputBytes: 10 << 20 };

/** A local (unisolated) sandbox over the given folders (the agent's own folder made up when not given), with a plain PATH and no network. */
export function localTestSandbox(
  id: string,
  dataDir: string,
  writable: Omit<SandboxSpec["writable"], "agent"> & { agent?: string },
  env: Record<string, string> = {},
): Promise<Sandbox> {
  return localBackend.create({
    id,
    dataDir,
    writable: { ...writable, agent: writable.agent ?? tempDir("agent-dir-") },
    files: {},
    sockets: [],
    env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", ...env },
    limits: NO_LIMITS,
    gpus: [],
    network: "none",
  });
}
