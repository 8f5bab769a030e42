import { spawn, type ChildProcess } from "node:child_process";
import { REPO } from "./cli.js";

/** Start `mlebench view` (as `argv` says: the program first), read the URL it prints, and return it with the child. */
export function startViewCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(argv[0]!, argv.slice(1), { cwd: REPO, env });
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /^(http:\/\/\S+)\n/m.exec(out);
      if (m) resolve({ url: m[1]!, child, stderr: () => err });
    });
    child.on("exit", (code) => reject(new Error(`mlebench view exited ${code}: ${err}`)));
  });
}
