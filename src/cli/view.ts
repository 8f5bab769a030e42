import type { Command } from "commander";
import { UserError } from "../core/errors.js";
import { startViewServer } from "../view/server.js";
import { resolveDataDir } from "../core/paths.js";
import { localGroupDir } from "../queue/pull.js";
import { action, dataDirOption } from "./common.js";
import { summaryOf } from "./command-help.js";

interface ViewFlags {
  host: string;
  port: string;
  token?: string;
  dataDir?: string;
}

/** `mlebench view`: serve a local viewer of run groups until interrupted. */
export function register(program: Command): void {
  program
    .command("view")
    .summary(summaryOf("view"))
    .description(
      "Serve a viewer of run groups in the browser. MLE-bench groups (made by `mlebench run`) show the paper's table " +
        "and each competition's medals, agents side by side; research groups (made by `mlebench tasks run`) show each " +
        "run's improvement. A run shows a timeline of its LLM calls, programs run (AIDE nodes as a tree with metrics, " +
        "research steps with reflection, plan, action and observation), validation calls and snapshots (with the score " +
        "each would have had, graded here against the answers in the data dir); its resource peaks, exit reason and " +
        "integrity flags; every LLM call whole; its code versions with diffs, and its logs (paged, so a log of any size " +
        "opens). Two runs' final code can be compared, and runs searched (code, LLM calls, logs). Run data is shown as " +
        "text, never as markup, and the page loads nothing from outside this server. Bound to loopback by default (only " +
        "its own Host names are answered); bound to another address, every request needs the token printed with the " +
        "URL. Stops on Ctrl-C.",
    )
    .argument("[dirs...]", "run group dirs, runs dirs holding groups, or s3://bucket[/prefix]/<group> URLs (pulled into $MLEBENCH_S3_CACHE first)", ["runs"])
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--port <n>", "port to listen on (0: any free port)", "0")
    .option("--token <secret>", "the token requests must carry (default: none on loopback, a random one elsewhere)")
    .addOption(dataDirOption())
    .action(
      action(async (dirs: string[], flags: ViewFlags) => {
        const port = Number(flags.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UserError(`--port: expected a port number 0-65535, got "${flags.port}"`);
        if (flags.token !== undefined && !/^[A-Za-z0-9_-]{16,}$/.test(flags.token)) throw new UserError("--token: expected at least 16 letters, digits, '-' or '_'");
        const roots: string[] = [];
        for (const d of dirs) roots.push(await localGroupDir(d, "view", (line) => process.stderr.write(`${line}\n`)));
        const server = await startViewServer({ roots, host: flags.host, port, token: flags.token, dataDir: resolveDataDir(flags.dataDir), warn: (m) => process.stderr.write(`warning: ${m}\n`) }).catch((e: NodeJS.ErrnoException) => {
          if (e.code === "EADDRINUSE") throw new UserError(`--port: ${port} is in use on ${flags.host}; pick another, or 0 for any free port`);
          if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND") throw new UserError(`--host: cannot listen on ${flags.host} (${e.code})`);
          throw e;
        });
        process.stdout.write(`${server.url}\n`);
        await new Promise<void>((resolve) => {
          const stop = () => void server.close().then(resolve);
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
      }),
    );
}
