import type { Command } from "commander";
import { resolveDataDir } from "../core/paths.js";
import { readPublicKey } from "../bundle/bundle.js";
import { verifyBundle, type VerifyResult } from "../bundle/verify.js";
import { action, dataDirOption } from "./common.js";
import { summaryOf } from "./command-help.js";

interface VerifyFlags {
  dataDir?: string;
  key?: string;
  json?: boolean;
}

const scoreText = (s: number | null) => (s === null ? "none" : String(s));

function printText(r: VerifyResult): void {
  const out = (line: string) => process.stdout.write(line + "\n");
  out(r.archive);
  if (r.signature.signed) out(`signature: ${r.signature.valid ? "valid" : "INVALID"}, key ${r.signature.key_id ?? "?"}`);
  else out("signature: none (unsigned bundle)");
  if (r.file_problems.length === 0) out("files: every file matches its sha256 in bundle.json");
  else {
    out(`files: ${r.file_problems.length} do not match bundle.json`);
    for (const p of r.file_problems) out(`  ${p}`);
  }
  for (const p of r.problems) out(`problem: ${p}`);
  out("runs:");
  for (const run of r.runs) {
    const regraded = run.regraded ? `re-graded ${scoreText(run.regraded.score)}${run.regraded.any_medal ? " (medal)" : ""}` : "not re-graded";
    out(`  ${run.verdict.padEnd(12)} ${run.competition_id} ${run.run_id}: claimed ${scoreText(run.claimed.score)}${run.claimed.any_medal ? " (medal)" : ""}, ${regraded}${run.detail ? ` — ${run.detail}` : ""}`);
    if (run.data_note) out(`               note: ${run.data_note}`);
  }
  out("table (claimed → re-graded):");
  for (const row of r.claimed_table) {
    const again = r.reproduced_table.find((x) => x.agent_id === row.agent_id);
    out(`  ${row.agent_id}: any medal ${row.medals}/${row.runs} (${row.any_medal_pct}%) → ${again ? `${again.medals}/${again.runs} (${again.any_medal_pct}%)` : "-"}`);
  }
  out(r.ok ? "verified: the claimed table is reproduced" : r.table_reproduced ? "NOT verified: the table is reproduced, but the bundle was altered" : "NOT verified: the claimed table is not reproduced");
}

/** `mlebench verify`: check a bundle's hashes and signature and re-grade its submissions. */
export function register(program: Command): void {
  program
    .command("verify")
    .summary(summaryOf("verify"))
    .description(
      "Check a bundle made by `mlebench bundle`: every file against its sha256 in bundle.json (a changed, missing or " +
        "added file is named), bundle.json against its signature (bundle.sig) and, with --key, that the signature is " +
        "by that key; each run's grading report against the claimed table; then re-grade every submission against the " +
        "answers in the data dir, and say whether the claimed table is reproduced. A run whose manifest records other " +
        "data than the data dir's is noted. Exits 0 when everything checks, 1 when anything does not.",
    )
    .argument("<bundle>", "the .tar.gz written by mlebench bundle")
    .addOption(dataDirOption())
    .option("--key <key.pem>", "require a signature by this ed25519 key (a PEM public key, or the private key)")
    .option("--json", "print the whole verdict as JSON")
    .action(
      action(async (archive: string, flags: VerifyFlags) => {
        const key = flags.key !== undefined ? readPublicKey(flags.key, "--key") : undefined;
        const r = await verifyBundle({ archive, dataDir: resolveDataDir(flags.dataDir), key }, (done, total) => {
          if (!flags.json && process.stderr.isTTY) process.stderr.write(`\rre-grading ${done}/${total}`);
          if (!flags.json && process.stderr.isTTY && done === total) process.stderr.write("\n");
        });
        if (flags.json) process.stdout.write(JSON.stringify(r, null, 2) + "\n");
        else printText(r);
        return r.ok ? 0 : 1;
      }),
    );
}
