import type { Command } from "commander";
import { runChecks, type Check } from "../doctor/checks.js";
import { action, EXIT } from "./common.js";
import { summaryOf } from "./command-help.js";

/** The checks as an aligned table, each problem followed by its fix. */
export function formatChecks(checks: Check[]): string {
  const header = ["check", "status", "needed", "detail"];
  const rows = checks.map((c) => [c.name, c.status, c.required ? "required" : "optional", c.detail]);
  const widths = header.slice(0, 3).map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (row: string[]) =>
    row
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell))
      .join("  ")
      .trimEnd();
  const indent = " ".repeat(widths[0] + 2);
  const lines = [fmt(header)];
  for (let i = 0; i < checks.length; i++) {
    lines.push(fmt(rows[i]));
    const c = checks[i];
    if (c.status !== "ok" && c.fix !== null) lines.push(`${indent}fix: ${c.fix}`);
  }
  return lines.join("\n") + "\n";
}

/** Whether every required check passed (doctor's exit status). */
export function checksOk(checks: Check[]): boolean {
  return checks.every((c) => !c.required || c.status === "ok");
}

/** `mlebench doctor`: whether this machine can run agents, and what to install if not. */
export function register(program: Command): void {
  program
    .command("doctor")
    .summary(summaryOf("doctor"))
    .description(
      "Check what running agents needs: Node, bubblewrap (and that it can create a sandbox), cgroups for " +
        "memory/pid/CPU limits, the agents' Python (/usr/bin/python3, or $MLEBENCH_AGENT_PYTHON) with numpy, " +
        "pandas, scikit-learn, scipy, xgboost and optionally torch, curl, the Docker engine (only for " +
        "--sandbox docker) and NVIDIA GPUs. Exits 0 when every required check passes, 1 otherwise.",
    )
    .option("--json", "print {checks: [{name, status, required, detail, fix}], ok} as JSON instead of a table")
    .action(
      action(async (opts: { json?: boolean }) => {
        const checks = await runChecks();
        const ok = checksOk(checks);
        if (opts.json) {
          process.stdout.write(JSON.stringify({ checks, ok }, null, 2) + "\n");
        } else {
          process.stdout.write(formatChecks(checks));
          const problems = checks.filter((c) => c.required && c.status !== "ok").length;
          process.stdout.write(
            ok
              ? "\nAll required checks passed.\n"
              : `\n${problems} required check${problems === 1 ? "" : "s"} failed; see the fixes above.\n`,
          );
        }
        return ok ? EXIT.ok : EXIT.failed;
      }),
    );
}
