import os from "node:os";
import path from "node:path";
import { Option, type Command } from "commander";
import { resolveDataDir } from "../core/paths.js";
import { checkReachable } from "../queue/producer.js";
import { openResultStore } from "../queue/store.js";
import { parseRedisUrl } from "../queue/url.js";
import { startRunWorker } from "../queue/worker.js";
import { parseDuration, parseGpus, parsePositiveInt } from "../sandbox/limits.js";
import { requireGpus } from "../sandbox/bwrap.js";
import { gpuPool } from "../runner/gpu-pool.js";
import { SANDBOX_BACKENDS } from "../sandbox/registry.js";
import { action, dataDirOption } from "./common.js";
import { summaryOf } from "./command-help.js";

interface WorkerFlags {
  queue: string;
  concurrency: string;
  gpus?: string;
  gpusPerRun?: string;
  dataDir?: string;
  runsDir: string;
  stagingDir?: string;
  sandbox?: string;
  secretsFile?: string;
  name?: string;
  lockDuration: string;
  stalledInterval: string;
}

/** `mlebench worker`: run queued runs from Redis on this machine until stopped. */
export function register(program: Command): void {
  program
    .command("worker")
    .summary(summaryOf("worker"))
    .description(
      "Take runs from the Redis queue that `mlebench run --queue` fills, prepare their competition in --data-dir if it is " +
        "missing, run each exactly as a local run does, and publish its run dir into the shared --runs-dir (a shared filesystem, or an S3-compatible bucket) all at once. " +
        "Secrets (LLM keys) come from this machine's environment or --secrets-file, never from Redis. A worker that is " +
        "killed loses its runs' locks; after --lock-duration another worker takes them again. Ctrl-C stops taking runs " +
        "and interrupts the running ones (they are retried elsewhere); a second Ctrl-C quits at once.",
    )
    .requiredOption("--queue <url>", "Redis to take runs from: redis://[user:password@]host:port[/db] (rediss:// for TLS)")
    .option("--concurrency <n>", "runs at the same time on this machine", "1")
    .option("--gpus <list>", "NVIDIA GPU indices given to every run here, e.g. 0,1, or none (default: what the run asked for)")
    .option("--gpus-per-run <n>", "share --gpus out instead: each run holds n of them while it runs (--concurrency at most GPUs / n)")
    .addOption(dataDirOption())
    .option(
      "--runs-dir <dir>",
      "where the run groups are: the shared dir (NFS, EFS, …) as mounted on this machine, or s3://bucket[/prefix] " +
        "(credentials, region and endpoint from the AWS_* environment variables)",
      "runs",
    )
    .option("--staging-dir <dir>", "with an s3:// --runs-dir: local dir where runs are written before they are uploaded (default: the OS temp dir)")
    .addOption(new Option("--sandbox <backend>", "isolation backend used here instead of the one the run asked for").choices([...SANDBOX_BACKENDS.keys()]))
    .option("--secrets-file <file>", "KEY=VALUE file for ${{ secrets.NAME }} references (default: this machine's environment)")
    .option("--name <name>", "how this worker is shown (default: <hostname>-<pid>)")
    .option("--lock-duration <duration>", "how long a run's lock lives without renewal before another worker may take the run", "30s")
    .option("--stalled-interval <duration>", "how often to look for runs whose worker was lost", "30s")
    .action(
      action(async (flags: WorkerFlags) => {
        const url = parseRedisUrl(flags.queue);
        const gpus = flags.gpus === undefined ? undefined : parseGpus(flags.gpus);
        if (gpus && flags.sandbox !== "docker") requireGpus(gpus);
        const concurrency = parsePositiveInt(flags.concurrency, "--concurrency");
        const pool = gpuPool(gpus ?? [], flags.gpusPerRun === undefined ? undefined : parsePositiveInt(flags.gpusPerRun, "--gpus-per-run"), concurrency, "--concurrency");
        await checkReachable(url);
        const name = flags.name ?? `${os.hostname()}-${process.pid}`;
        const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${name}: ${line}\n`);
        const store = await openResultStore(flags.runsDir, { stagingDir: flags.stagingDir === undefined ? undefined : path.resolve(flags.stagingDir) });
        for (const w of await store.check()) log(`warning: ${w}`);
        const w = startRunWorker({
          url,
          store,
          dataDir: resolveDataDir(flags.dataDir),
          concurrency,
          gpus,
          gpuPool: pool,
          sandbox: flags.sandbox,
          secretsFile: flags.secretsFile,
          lockMs: parseDuration(flags.lockDuration, "--lock-duration"),
          stalledMs: parseDuration(flags.stalledInterval, "--stalled-interval"),
          name,
          log,
        });
        log(`waiting for runs on ${url.display}; results go to ${store.describe()}`);
        await new Promise<void>((resolve) => {
          let signals = 0;
          const onSignal = () => {
            if (++signals > 1) process.exit(130);
            log("stopping: interrupting running runs (again to quit at once)");
            void w.stop().then(resolve);
          };
          process.on("SIGINT", onSignal);
          process.on("SIGTERM", onSignal);
        });
        log("stopped");
        return 0;
      }),
    );
}
