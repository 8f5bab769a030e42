/** Noticing, from inside an agent, that the sandbox ended the whole run under it. */
import type { ExecResult, Sandbox } from "./types.js";

/** Whether a command's result means the run itself is over (interrupted, out of memory, out of disk), not just the command. */
export function endsRun(r: ExecResult): boolean {
  return r.reason === "interrupted" || r.reason === "oom" || r.reason === "disk_limit";
}

/** `sandbox` as seen through a wrapper that remembers the first command result that ended the run. */
export function watchRunEnd(sandbox: Sandbox): { sandbox: Sandbox; ended(): ExecResult | null } {
  let ended: ExecResult | null = null;
  const watched: Sandbox = Object.assign(Object.create(sandbox) as Sandbox, {
    exec: async (argv: string[], opts?: Parameters<Sandbox["exec"]>[1]) => {
      const r = await sandbox.exec(argv, opts);
      if (ended === null && endsRun(r)) ended = r;
      return r;
    },
  });
  return { sandbox: watched, ended: () => ended };
}
