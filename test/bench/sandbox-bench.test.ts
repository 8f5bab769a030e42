import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxBackend } from "../../src/sandbox/registry.js";
import { REPO } from "../helpers/cli.js";

const BENCH = path.join(REPO, "bench", "sandbox", "run.mjs");
const BWRAP = await getSandboxBackend("bwrap").unavailable();

interface Row {
  id: string;
  ours_ms: number;
  reference_ms: number;
  difference_ms: number;
  ratio: number;
  target_ms: number | null;
  ok: boolean | null;
}

// The figures themselves depend on the machine; what must hold anywhere is that the bench measures
// and says whether the targets were met (exit 1 is a missed target, not a broken bench).
describe("bench/sandbox/run.mjs", () => {
  it.skipIf(BWRAP !== null)(`measures bwrap's per-exec and per-run overhead and reports it as JSON${BWRAP ? `: skipped, ${BWRAP}` : ""}`, () => {
    const r = spawnSync(process.execPath, [BENCH, "--json"], {
      cwd: REPO,
      env: { ...process.env, BENCH_REPEATS: "2", BENCH_DOCKER: "0", BENCH_CLI: "0" },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect([0, 1], r.stderr).toContain(r.status);
    const out = JSON.parse(r.stdout) as { rows: Row[]; skipped: Record<string, string>; ok: boolean; repeats: Record<string, number> };
    expect(out.repeats).toEqual({ exec: 2, run: 2, cli: 2 });
    expect(out.rows.map((x) => x.id)).toEqual(["bwrap.exec", "bwrap.run"]);
    for (const row of out.rows) {
      for (const v of [row.ours_ms, row.reference_ms, row.ratio]) expect(v).toBeGreaterThan(0);
      expect(row.difference_ms).toBeCloseTo(row.ours_ms - row.reference_ms, 6);
      expect(row.target_ms).toBeGreaterThan(0);
      expect(row.ok).toBe(row.difference_ms <= row.target_ms!);
    }
    expect(out.ok).toBe(r.status === 0);
    expect(out.skipped).toEqual({ docker: "BENCH_DOCKER=0", cli: "BENCH_CLI=0" });
  });

  it("exits 2, saying why, where bwrap cannot make a sandbox", () => {
    // MLEBENCH_BWRAP stands in for a bubblewrap that cannot create namespaces.
    const r = spawnSync(process.execPath, [BENCH, "--json"], {
      cwd: REPO,
      env: { ...process.env, MLEBENCH_BWRAP: "/bin/false", BENCH_REPEATS: "1" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("bubblewrap cannot create namespaces here");
  });
});
