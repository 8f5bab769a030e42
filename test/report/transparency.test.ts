import { describe, expect, it } from "vitest";
import { estimate } from "../../src/present/stats.js";
import type { RunRecord } from "../../src/results/record.js";
import { costNormalised, equalBudgets, equalCosts, ratio } from "../../src/report/cost.js";
import type { ReportedRun } from "../../src/report/inputs.js";
import { missingReport } from "../../src/report/seeds.js";
import { hardwareConfigs, modelTotals, transparencyOf } from "../../src/report/transparency.js";
import { hardwareText, usd } from "../../src/report/transparency-table.js";
import { fakeManifest, modelUse, probingLog, type ManifestFacts } from "./manifest-fixture.js";

/** A reported run with a manifest (or none), and a run.json wall time where given. */
function run(facts: ManifestFacts | null, recordWall: number | null = null): ReportedRun {
  const record = recordWall === null ? null : ({ wall_seconds: recordWall } as RunRecord);
  return { report: missingReport("titanic"), runDir: null, record, manifest: facts ? fakeManifest(facts) : null, manifestProblem: null };
}

const GAMMA: ManifestFacts[] = [
  { run_id: "r0", seed: 0, wall_seconds: 1800, gpus: 1, models: [modelUse("gpt-4o", 10, 1000, 200, 0.25), modelUse("o3-mini", 2, 50, 10, null)], allowed_hosts: ["api.openai.com"], blocked_attempts: 3, validation: probingLog(10) },
  { run_id: "r1", seed: 1, wall_seconds: 1800, gpus: 1, models: [modelUse("gpt-4o", 5, 500, 100, 0.125)], allowed_hosts: ["api.openai.com"], validation: probingLog(9) },
  { run_id: "r2", seed: 2, wall_seconds: 1800 },
];

describe("transparencyOf", () => {
  it("sums hardware, time, models, network and validation over the runs' manifests, and flags probing", () => {
    const t = transparencyOf(GAMMA.map((f) => run(f)));
    expect(t).toMatchObject({
      runs: 3, recorded_runs: 3, time_limit_seconds: [3600], wall_seconds_total: 5400, wall_seconds_mean: 1800,
      llm_calls: 17, input_tokens: 1550, output_tokens: 310, cost_usd: 0.375, unpriced_calls: 2,
      network: { modes: ["none", "proxy"], allowed_hosts: ["api.openai.com"], blocked_attempts: 3 },
      validation_calls_mean: 7, validation_calls_max: 11,
    });
    expect(t.hardware.map((h) => [h.gpus.length, h.runs])).toEqual([[1, 2], [0, 1]]);
    expect(t.models).toEqual([
      { model: "gpt-4o", calls: 15, input_tokens: 1500, output_tokens: 300, cost_usd: 0.375, unpriced_calls: 0 },
      { model: "o3-mini", calls: 2, input_tokens: 50, output_tokens: 10, cost_usd: null, unpriced_calls: 2 },
    ]);
    expect(t.probing).toMatchObject({ checked: 3, flagged: 1, run_ids: ["r0"] });
    expect(t.probing.runs[0]).toMatchObject({ run_id: "r0", competition_id: "titanic", seed: 0, near_identical_calls: 10, identical_repeats: 0, calls: 11 });
  });

  it("says nothing it does not know: no manifests give nulls, and a run without priced calls no cost", () => {
    const none = transparencyOf([run(null), run(null)]);
    expect(none).toMatchObject({ runs: 2, recorded_runs: 0, hardware: [], models: [], wall_seconds_total: null, llm_calls: null, cost_usd: null, network: null, validation_calls_mean: null, validation_calls_max: null });
    expect(none.probing).toEqual({ checked: 0, flagged: 0, run_ids: [], runs: [] });
    const unpriced = transparencyOf([run({ run_id: "u", seed: 0, wall_seconds: 60, models: [modelUse("local", 3, 10, 10, null)] }), run(null)]);
    expect(unpriced).toMatchObject({ runs: 2, recorded_runs: 1, llm_calls: 3, cost_usd: null, unpriced_calls: 3 });
  });

  it("groups identical hardware and models by name", () => {
    const ms = GAMMA.map(fakeManifest);
    expect(hardwareConfigs([ms[0], ms[1]])).toHaveLength(1);
    expect(hardwareText(hardwareConfigs(ms)[0])).toBe("AMD EPYC 7763, 8 CPUs, 64 GiB memory, 1× NVIDIA H200 (141 GiB)");
    expect(hardwareText(hardwareConfigs(ms)[1])).toBe("AMD EPYC 7763, 8 CPUs, 64 GiB memory, no GPU");
    expect(modelTotals([ms[2]])).toEqual([]);
    expect([usd(0.375), usd(12.345)]).toEqual(["0.3750", "12.35"]);
  });
});

describe("costNormalised", () => {
  it("divides medals by run-hours, GPU-hours and dollars (hand-computed)", () => {
    const c = costNormalised(GAMMA.map((f) => run(f)), 2);
    expect(c).toMatchObject({ runs: 3, medals: 2, run_hours: 1.5, gpu_hours: 1, cost_usd: 0.375, equal_budget: null });
    expect(c.medals_per_run_hour.value).toBeCloseTo(4 / 3, 12);
    expect(c.medals_per_gpu_hour).toEqual({ value: 2, reason: null });
    expect(c.medals_per_usd.value).toBeCloseTo(16 / 3, 12);
  });

  it("says n/a when no GPU or no priced call, and not recorded when a run lacks the figure", () => {
    const cpuOnly = costNormalised([run({ run_id: "a", seed: 0, wall_seconds: 3600, gpu_seconds: null })], 1);
    expect(cpuOnly).toMatchObject({ gpu_hours: 0, cost_usd: null, medals_per_gpu_hour: { value: null, reason: "n/a" }, medals_per_usd: { value: null, reason: "n/a" } });
    expect(cpuOnly.medals_per_run_hour).toEqual({ value: 1, reason: null });
    // A run without a manifest still has run.json's wall time, but no GPU or cost figure.
    const mixed = costNormalised([run(GAMMA[0]), run(null, 1800)], 1);
    expect(mixed).toMatchObject({ run_hours: 1, gpu_hours: null, cost_usd: null });
    expect(mixed.medals_per_gpu_hour).toEqual({ value: null, reason: "not recorded" });
    expect(mixed.medals_per_usd).toEqual({ value: null, reason: "not recorded" });
    expect(costNormalised([run(null)], 0).medals_per_run_hour).toEqual({ value: null, reason: "not recorded" });
    expect(ratio(3, 0)).toEqual({ value: null, reason: "n/a" });
  });
});

describe("equalBudgets", () => {
  const curve = (horizon: number, rates: (i: number) => number) =>
    Array.from({ length: 24 }, (_, k) => ({ fraction: (k + 1) / 24, elapsed_seconds: Math.round((horizon * (k + 1)) / 24), any_medal: estimate([rates(k + 1)]) }));

  it("reads every agent at the smallest horizon, each at its last point not past it", () => {
    const short = curve(240, (i) => i);
    const long = curve(3600, (i) => 100 + i);
    const [a, b, c] = equalBudgets([short, null, long]);
    expect(a).toMatchObject({ budget_seconds: 240, elapsed_seconds: 240, fraction: 1 });
    expect(a!.any_medal.mean).toBe(24);
    expect(b).toBeNull();
    // 3600/24 = 150 s a step: 150 is the last point not past 240.
    expect(c).toMatchObject({ budget_seconds: 240, elapsed_seconds: 150, fraction: 1 / 24 });
    expect(c!.any_medal.mean).toBe(101);
    expect(equalBudgets([null, null])).toEqual([null, null]);
  });
});

describe("equalCosts", () => {
  const curve = (...p: [number, number][]) => p.map(([elapsed_seconds, cost_usd]) => ({ elapsed_seconds, cost_usd }));
  /** A run with a final medal or not, a cost curve, and the times at which a stub grader says it held a medal. */
  const costed = (medal: boolean, points: [number, number][] | null, medalFrom: number | null = null) => {
    const r = run(points === null ? null : { run_id: "r", seed: 0, wall_seconds: 1000, llm_cost_curve: curve(...points) }, 1000);
    r.report = { ...r.report, any_medal: medal, gold_medal: medal };
    return Object.assign(r, { medalFrom });
  };
  // Snapshots graded by a stub: a run holds a medal from `medalFrom` on.
  const grades = { medalAt: async (r: ReportedRun & { medalFrom: number | null }, t: number) => r.medalFrom !== null && t >= r.medalFrom } as never;

  it("holds every run to the smallest of the agents' largest run costs, and counts a cut run by its last snapshot before", async () => {
    const a = [[costed(true, [[10, 0.1], [50, 0.3]], 20)], [costed(true, [[5, 0.05]])]];
    const b = [[costed(false, [[100, 0.2]])], [costed(true, [[30, 0.1], [60, 0.25]], 70)]];
    const [x, y] = await equalCosts([a, b], grades);
    // Budget $0.25 (b's largest). a's first run passes it at 50 s, with a medal since 20 s: kept.
    expect(x).toEqual({ budget_usd: 0.25, runs_cut: 1, any_medal: estimate([100, 100]) });
    // b's second run reaches exactly $0.25, which is not past it: its final medal counts.
    expect(y).toEqual({ budget_usd: 0.25, runs_cut: 0, any_medal: estimate([0, 100]) });
    // With a budget of $0.2, b's second run is cut at 60 s, before its medal at 70 s.
    const c = [[costed(false, [[1, 0.2]])]];
    const [, y2] = await equalCosts([a, b, c], grades);
    expect(y2).toEqual({ budget_usd: 0.2, runs_cut: 1, any_medal: estimate([0, 0]) });
  });

  it("says nothing for agents with a run without a manifest, nor for anyone when nothing was spent", async () => {
    const free = [[costed(true, [])]];
    const unknown = [[costed(true, null)]];
    expect(await equalCosts([free, unknown], grades)).toEqual([null, null]);
    const spender = [[costed(false, [[10, 1]])]];
    const [f, u, s] = await equalCosts([free, unknown, spender], grades);
    expect(f).toEqual({ budget_usd: 1, runs_cut: 0, any_medal: estimate([100]) });
    expect(u).toBeNull();
    expect(s).toEqual({ budget_usd: 1, runs_cut: 0, any_medal: estimate([0]) });
  });
});
