import type { Command } from "commander";
import { UserError } from "../core/errors.js";
import { startViewServer } from "../view/server.js";
import { action } from "./common.js";
import { summaryOf } from "./command-help.js";

interface ViewFlags {
  host: string;
  port: string;
  token?: string;
}

/** `mlebench view`: serve a local viewer of run groups until interrupted. */
export function register(program: Command): void {
  program
    .command("view")
    .summary(summaryOf("view"))
    .description(
      "Serve a viewer of run groups in the browser: the groups with their agents and medals, each run with its record, " +
        "grading, manifest and logs (paged, so a log of any size opens). Run data is shown as text, never as markup, and " +
        "the page loads nothing from outside this server. Bound to loopback by default (only its own Host names are " +
        "answered); bound to another address, every request needs the token printed with the URL. Stops on Ctrl-C.",
    )
    .argument("[dirs...]", "run group dirs, or runs dirs holding groups", ["runs"])
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--port <n>", "port to listen on (0: any free port)", "0")
    .option("--token <secret>", "the token requests must carry (default: none on loopback, a random one elsewhere)")
    .action(
      action(async (dirs: string[], flags: ViewFlags) => {
        const port = Number(flags.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UserError(`--port: expected a port number 0-65535, got "${flags.port}"`);
        if (flags.token !== undefined && !/^[A-Za-z0-9_-]{16,}$/.test(flags.token)) throw new UserError("--token: expected at least 16 letters, digits, '-' or '_'");
        const server = await startViewServer({ roots: dirs, host: flags.host, port, token: flags.token, warn: (m) => process.stderr.write(`warning: ${m}\n`) }).catch((e: NodeJS.ErrnoException) => {
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
