import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Competition } from "../../src/core/competition.js";
import { competitionsInSplit } from "../../src/competitions/registry.js";
import { Calibration, TABLE_END, TABLE_START, calibrationFromDemo, calibrationTable, summarizeCalibration, withTable } from "../../src/demo/calibration.js";
import type { DemoReport, DemoRow } from "../../src/demo/demo.js";
import { tempDir } from "../helpers/data-dir.js";

const ROOT = decodeURIComponent(new URL("../../", import.meta.url).pathname);

/** A competition whose population is the scores 300, 299, …, 1 (higher is better). */
function fakeCompetition(id: string): Competition {
  const assets = tempDir(`mlebench-cal-${id}-`);
  const rows = Array.from({ length: 300 }, (_, i) => `team${i + 1},${300 - i}`);
  fs.writeFileSync(path.join(assets, "leaderboard.csv"), ["teamName,score", ...rows].join("\n") + "\n");
  return {
    id, name: `Task ${id}`, type: "simple", complexity: "low", category: "Tabular", metric: "accuracy", answers: "a.csv", sampleSubmission: "s.csv",
    grader: async () => ({ grade: () => 0 }),
    offline: { order: 1, sources: { x: { kind: "npm", package: "pkg", file: "f" } }, assets, layout: { train: "t", test: "u", id: "id" }, preparer: async () => ({ prepare: () => {} }) },
  };
}

const run = (competition_id: string, agent: string, seed: number, score: number | null) => ({ competition_id, agent, seed, score, valid: score !== null });

describe("offline calibration table", () => {
  it("ranks every run against the population: N=300 gives gold at 10, bronze at 100, median 150.5", () => {
    const a = fakeCompetition("a");
    const b = fakeCompetition("b");
    const cal: Calibration = {
      schema: "mlebench-offline-calibration/2",
      measurements: [{ measured_at: "2026-12-01T00:00:00", machine: "test", command: "test", competitions: ["a", "b"] }],
      // a: bronze (position 100 = score 201), above median, invalid; b: below median twice, gold once.
      runs: [run("a", "baseline", 0, 201), run("a", "baseline", 1, 160), run("a", "baseline", 2, null), run("b", "baseline", 0, 100), run("b", "baseline", 1, 291), run("b", "baseline", 2, 150)],
    };
    const s = summarizeCalibration(cal, [a, b], ["baseline", "dummy"]);
    expect(s.rows[0].board).toEqual({ entries: 300, best: 300, gold: 291, bronze: 201, median: 150.5, lowerIsBetter: false });
    expect(s.rows[0].agents.baseline).toEqual({ scores: [201, 160, null], mean: null, medals: 1, aboveMedian: 2 });
    expect(s.rows[1].agents.baseline).toEqual({ scores: [100, 291, 150], mean: 180.33333333333334, medals: 1, aboveMedian: 1 });
    expect(s.rows[0].agents.dummy).toBeNull();
    // Per seed: seed 0 one medal of two (50%), seed 1 one (50%), seed 2 none.
    expect(s.rates.baseline!.anyMedal.per_seed).toEqual([50, 50, 0]);
    expect(s.rates.baseline!.aboveMedian.per_seed).toEqual([50, 100, 0]);
    expect(s.rates.dummy).toBeNull();
    const table = calibrationTable(s);
    expect(table.split("\n")[2]).toBe("| a | Task a | npm pkg | Tabular | low | accuracy ↑ | 300 | 300 | 291 | 150.5 | – | 1/3 | – |");
    expect(table.split("\n")[3]).toBe("| b | Task b | npm pkg | Tabular | low | accuracy ↑ | 300 | 300 | 291 | 150.5 | 180.33 | 1/3 | – |");
    expect(table).toContain("- `baseline`: any medal 33.3% ± 16.7, above median 50.0% ± 28.9 (2 competitions, 3 seeds; mean ± SEM over seeds).");
  });

  it("says how many competitions lack a seed, which then counts as no medal", () => {
    const a = fakeCompetition("a");
    const b = fakeCompetition("b");
    const cal: Calibration = {
      schema: "mlebench-offline-calibration/2",
      measurements: [{ measured_at: "2026-12-01T00:00:00", machine: "test", command: "test", competitions: ["a", "b"] }],
      runs: [run("a", "baseline", 0, 291), run("b", "baseline", 0, 291), run("b", "baseline", 1, 291), run("b", "baseline", 2, 291)],
    };
    const s = summarizeCalibration(cal, [a, b], ["baseline"]);
    expect(s.rates.baseline).toMatchObject({ seeds: 3, competitions: 2, partial: 1 });
    expect(s.rates.baseline!.anyMedal.per_seed).toEqual([100, 50, 50]);
    expect(calibrationTable(s)).toContain(
      "- `baseline`: any medal 66.7% ± 16.7, above median 66.7% ± 16.7 (2 competitions, 3 seeds; 1 of them not measured with every seed, a missing run counting as none; mean ± SEM over seeds).",
    );
  });

  it("records a demo report, and with a previous record replaces only the competitions the report ran", () => {
    const row = (competition_id: string, agent: string, seed: number, score: number | null): DemoRow => ({
      competition_id, agent, seed, status: "completed", exit_reason: "finished", score, valid: score !== null, medal: null, above_median: false, report: null,
    });
    const report = (created_at: string, rows: DemoRow[]): DemoReport => ({ created_at, run_groups: {}, rows, summaries: {}, report_file: "r.json", html_file: "r.html" });
    const first = calibrationFromDemo(report("2026-12-01T10:00:00", [row("b", "dummy", 0, 1), row("a", "baseline", 0, 7), row("b", "baseline", 0, 5)]), "mlebench demo");
    expect(first.schema).toBe("mlebench-offline-calibration/2");
    expect(first.measurements).toEqual([{ measured_at: "2026-12-01T10:00:00", machine: expect.any(String), command: "mlebench demo", competitions: ["a", "b"] }]);
    expect(first.runs).toEqual([run("a", "baseline", 0, 7), run("b", "baseline", 0, 5), run("b", "dummy", 0, 1)]);
    // b measured again with three seeds, one of them invalid: a keeps its run and its measurement.
    const again = report("2026-12-02T10:00:00", [row("b", "baseline", 0, 6), row("b", "baseline", 1, null), row("b", "baseline", 2, 8)]);
    const merged = calibrationFromDemo(again, "mlebench demo -c b --seeds 3", first);
    expect(merged.measurements.map((m) => [m.measured_at, m.command, m.competitions])).toEqual([
      ["2026-12-01T10:00:00", "mlebench demo", ["a"]],
      ["2026-12-02T10:00:00", "mlebench demo -c b --seeds 3", ["b"]],
    ]);
    expect(merged.runs).toEqual([run("a", "baseline", 0, 7), run("b", "baseline", 0, 6), run("b", "baseline", 1, null), run("b", "baseline", 2, 8)]);
    // Measuring every competition again leaves no stale measurement behind.
    const all = calibrationFromDemo(report("2026-12-03T10:00:00", [row("a", "baseline", 0, 1), row("b", "baseline", 0, 2)]), "x", merged);
    expect(all.measurements.map((m) => m.competitions)).toEqual([["a", "b"]]);
  });

  it("reads a record of the first schema as one measurement of the competitions its runs name", () => {
    const v1 = { schema: "mlebench-offline-calibration/1", measured_at: "2026-12-01T00:00:00", machine: "m", command: "mlebench demo", runs: [run("b", "dummy", 0, 1), run("a", "baseline", 0, 2)] };
    expect(Calibration.parse(v1)).toEqual({
      schema: "mlebench-offline-calibration/2",
      measurements: [{ measured_at: "2026-12-01T00:00:00", machine: "m", command: "mlebench demo", competitions: ["a", "b"] }],
      runs: v1.runs,
    });
    expect(() => Calibration.parse({ schema: "mlebench-offline-calibration/3", runs: [] })).toThrow();
  });

  it("replaces only what lies between the markers, and says when they are missing", () => {
    const text = `intro\n${TABLE_START}\nold\n${TABLE_END}\noutro\n`;
    expect(withTable(text, "new\n", "R.md")).toBe(`intro\n${TABLE_START}\nnew\n${TABLE_END}\noutro\n`);
    expect(() => withTable("no markers", "x", "R.md")).toThrow("R.md lacks the markers");
  });

  it("README.md's table is what the committed calibration and populations give (node scripts/offline/calibration.mjs)", () => {
    const cal = Calibration.parse(JSON.parse(fs.readFileSync(path.join(ROOT, "docs", "offline-calibration.json"), "utf8")));
    const table = calibrationTable(summarizeCalibration(cal, competitionsInSplit("offline"), ["baseline", "dummy"]));
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(withTable(readme, table, "README.md")).toBe(readme);
  });
});
