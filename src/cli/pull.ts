import path from "node:path";
import type { Command } from "commander";
import { pullGroup } from "../queue/pull.js";
import { locateGroup } from "../queue/store.js";
import { action } from "./common.js";
import { summaryOf } from "./command-help.js";

interface PullFlags {
  to: string;
  json?: boolean;
}

/** `mlebench pull`: copy a run group from its shared store (s3:// or a shared dir) to a local runs dir. */
export function register(program: Command): void {
  program
    .command("pull")
    .summary(summaryOf("pull"))
    .description(
      "Copy the published runs of a run group, and its metadata.json, into <to>/<group>/, so `mlebench report`, " +
        "`grade` and `integrity` can read it. Each run is downloaded beside its place and swapped in whole; runs already " +
        "there unchanged are skipped, so pulling again while the group runs fetches only what is new. S3 credentials, " +
        "region and endpoint come from the AWS_* environment variables.",
    )
    .argument("<group>", "the run group: s3://bucket[/prefix]/<group>, or a group dir")
    .option("--to <dir>", "local dir to put the group in", "runs")
    .option("--json", "print what was pulled as JSON on stdout")
    .action(
      action(async (group: string, flags: PullFlags) => {
        const { store, group: name } = await locateGroup(group, flags.to, {}, "pull");
        const r = await pullGroup(store, name, path.resolve(flags.to), (runId, what) => process.stderr.write(`${runId}: ${what}\n`));
        if (flags.json) {
          process.stdout.write(JSON.stringify({ run_group: r.meta.run_group, dir: r.dir, pulled: r.pulled, up_to_date: r.upToDate, unpublished: r.unpublished }, null, 2) + "\n");
        } else {
          process.stdout.write(`${r.dir}\n`);
          process.stderr.write(`pulled ${r.pulled.length}, ${r.upToDate.length} already up to date, ${r.unpublished.length} not published yet\n`);
        }
        return 0;
      }),
    );
}
