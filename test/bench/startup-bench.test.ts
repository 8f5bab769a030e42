import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/cli.js";

const BENCH = path.join(REPO, "bench", "startup", "run.mjs");

interface Row {
  name: string;
  seconds: number;
  ratio: number;
  target: string | null;
  ok: boolean | null;
}

// The figures depend on the machine; what must hold anywhere is that the bench measures every
// command against node -e 0 and judges exactly the targeted rows (exit 1 is a missed target).
describe("bench/startup/run.mjs", () => {
  it("times each command against node -e 0 and judges the targeted ones", () => {
    const r = spawnSync(process.execPath, [BENCH, "--json"], { cwd: REPO, env: { ...process.env, BENCH_REPEATS: "2" }, encoding: "utf8", timeout: 120_000 });
    expect([0, 1], r.stderr).toContain(r.status);
    const out = JSON.parse(r.stdout) as { repeats: number; rows: Row[] };
    expect(out.repeats).toBe(2);
    expect(out.rows.map((x) => x.name)).toEqual([
      "node -e 0",
      "mlebench --version",
      "mlebench --help",
      "mlebench list",
      "mlebench list --split offline",
      "mlebench run --help",
      "mlebench tasks --help",
    ]);
    const reference = out.rows[0].seconds;
    for (const row of out.rows) {
      expect(row.seconds).toBeGreaterThan(0);
      expect(row.ratio).toBeCloseTo(row.seconds / reference, 9);
    }
    const judged = Object.fromEntries(out.rows.map((x) => [x.name, x]));
    expect(judged["mlebench --version"].ok).toBe(judged["mlebench --version"].ratio <= 2);
    expect(judged["mlebench --help"].ok).toBe(judged["mlebench --help"].ratio <= 2);
    expect(judged["mlebench list"].ok).toBe(judged["mlebench list"].seconds <= 0.3);
    expect(judged["mlebench run --help"].ok).toBeNull();
    expect(r.status).toBe(out.rows.some((x) => x.ok === false) ? 1 : 0);
  });
});
