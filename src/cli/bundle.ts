import type { Command } from "commander";
import { UserError } from "../core/errors.js";
import { writeBundle } from "../bundle/bundle.js";
import { harnessInfo } from "../runner/manifest-facts.js";
import { action } from "./common.js";
import { summaryOf } from "./command-help.js";

interface BundleFlags {
  output: string;
  sign?: string;
  maxFileBytes: string;
  json?: boolean;
}

/** `mlebench bundle`: pack run groups with every file's hash (and a signature) into one .tar.gz. */
export function register(program: Command): void {
  program
    .command("bundle")
    .summary(summaryOf("bundle"))
    .description(
      "Pack run groups into one .tar.gz that anyone can check with `mlebench verify`: each group's metadata.json and " +
        "manifest.json; each run's run.json, manifest.json (hardware, software, limits and use, models, network, " +
        "validation calls, data checksums), grading report, run.log, validation and egress logs, snapshots, and the " +
        "agent's submission/, code/ and logs/ (read without following links). bundle.json lists the sha256 of every " +
        "file and the table of results claimed; with --sign, bundle.sig signs it with an ed25519 key. The archive is " +
        "written under a temporary name and renamed, so a failed bundle leaves nothing behind.",
    )
    .argument("<groups...>", "run group dirs (made by mlebench run)")
    .requiredOption("-o, --output <file>", "the .tar.gz to write")
    .option("--sign <key.pem>", "sign with this ed25519 private key (PEM; make one with: openssl genpkey -algorithm ed25519 -out key.pem)")
    .option("--max-file-bytes <n>", "leave out (and list as skipped) agent files larger than this", String(1 << 30))
    .option("--json", "print what was written as JSON")
    .action(
      action(async (groups: string[], flags: BundleFlags) => {
        const maxFileBytes = Number(flags.maxFileBytes);
        if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes <= 0) {
          throw new UserError(`--max-file-bytes: expected a positive whole number of bytes, got "${flags.maxFileBytes}"`);
        }
        // A count on the terminal while large groups are read and compressed; nothing when piped.
        let n = 0;
        const tty = process.stderr.isTTY && !flags.json;
        const onFile = tty ? () => void (++n % 50 === 0 && process.stderr.write(`\rbundling: ${n} files`)) : undefined;
        const r = await writeBundle({ groupDirs: groups, output: flags.output, harness: harnessInfo(), signKey: flags.sign, limits: { maxFileBytes, maxEntries: 100_000 }, onFile });
        if (tty && n >= 50) process.stderr.write("\n");
        if (flags.json) {
          process.stdout.write(JSON.stringify({ output: r.output, files: r.files, bytes: r.bytes, runs: r.runs, ungraded: r.ungraded, skipped: r.skipped, key_id: r.keyId }, null, 2) + "\n");
        } else {
          const signed = r.keyId ? `, signed by key ${r.keyId.slice(0, 16)}…` : ", unsigned";
          process.stdout.write(`wrote ${r.output}: ${r.files} files (${r.bytes} bytes), ${r.runs} graded runs${signed}\n`);
          if (r.ungraded > 0) process.stdout.write(`${r.ungraded} completed runs have no grading report and are not in the claimed table (run with --grade, or grade them before bundling)\n`);
          if (r.skipped > 0) process.stdout.write(`${r.skipped} entries of the agents' folders were left out (listed in bundle.json under "skipped")\n`);
        }
      }),
    );
}
