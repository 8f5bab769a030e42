import path from "node:path";
import { HostSandbox } from "./host.js";
import type { Sandbox, SandboxBackend, SandboxSpec } from "./types.js";

/** Printed whenever the local backend is used: it isolates nothing. */
export const LOCAL_WARNING =
  "WARNING: --sandbox local runs the agent as an ordinary process of this user, with no isolation: " +
  "it can read the private answers, your home directory, your environment and the network. " +
  "Use it only to debug an agent you trust; its results are not comparable.";

/**
 * No isolation: the command runs on the host with the run's directories passed as environment
 * variables (MLEBENCH_DATA_DIR, MLEBENCH_SUBMISSION_DIR, ...). Limits that need no namespace
 * (wall time, cgroups when writable, disk polling, output caps) still apply.
 */
export const localBackend = {
  name: "local",
  async unavailable(): Promise<string | null> {
    return null;
  },
  async create(spec: SandboxSpec): Promise<Sandbox> {
    const validate = spec.files["/home/validate_submission.sh"];
    const instructions = spec.files["/home/instructions.txt"];
    const socketDir = spec.sockets[0] ? path.dirname(spec.sockets[0].hostPath) : "";
    const paths = {
      data: spec.dataDir,
      submission: spec.writable.submission,
      code: spec.writable.code,
      logs: spec.writable.logs,
      workspace: spec.writable.workspace,
      agent: spec.writable.agent,
      instructions: instructions ?? "",
      validateScript: validate ?? "",
      runtime: socketDir,
    };
    const vars: Record<string, string> = {
      MLEBENCH_DATA_DIR: paths.data,
      MLEBENCH_SUBMISSION_DIR: paths.submission,
      MLEBENCH_CODE_DIR: paths.code,
      MLEBENCH_LOGS_DIR: paths.logs,
      MLEBENCH_WORKSPACE_DIR: paths.workspace,
      MLEBENCH_AGENT_DIR: paths.agent,
      MLEBENCH_RUNTIME_DIR: paths.runtime,
      MLEBENCH_VALIDATE_SCRIPT: paths.validateScript,
      MLEBENCH_INSTRUCTIONS: paths.instructions,
    };
    const sandbox = new HostSandbox("local", paths, spec, {
      argv: (command) => ({ argv: command }),
      hostEnv: (env) => ({ ...env, ...vars, HOME: paths.workspace }),
      hostCwd: (cwd) => cwd,
    });
    sandbox.warnings.push(LOCAL_WARNING);
    return sandbox;
  },
} satisfies SandboxBackend;
