import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getCompetition, loadCompetition } from "../../src/competitions/registry.js";
import { OFFLINE } from "../../src/competitions/splits.js";
import { competitionPaths } from "../../src/core/paths.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import { writeRunManifest } from "../../src/results/manifest.js";
import type { RunRecord } from "../../src/results/record.js";
import type { ReportData } from "../../src/report/build.js";
import { REPO, mlebench } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir, writeTitanicGroup } from "../helpers/runs.js";
import { fakeManifest, modelUse, probingLog, type ManifestFacts } from "./manifest-fixture.js";

let dataDir = "";
let root = "";
let sample = "";
let answers = "";

beforeAll(async () => {
  dataDir = await titanicDataDir();
  const p = competitionPaths(dataDir, "titanic");
  sample = path.join(p.public, "sample_submission.csv");
  answers = path.join(p.private, getCompetition("titanic").answers); // a perfect submission: gold
  root = tempDir("mlebench-report-");
  writeTitanicGroup(dataDir, path.join(root, "a_run-group_alpha"), "alpha", [
    { seed: 0, submission: answers, wall: 100, snapshots: [{ elapsed: 30, from: sample }, { elapsed: 60, from: answers }] },
    { seed: 1, submission: sample, wall: 240, snapshots: [] },
  ]);
  // An upstream-style grading report for a second agent: two seeds of titanic, one bronze-less invalid.
  const beta = path.join(root, "b_run-group_beta");
  fs.mkdirSync(beta);
  const good = gradeSubmission(await loadCompetition("titanic"), answers, dataDir);
  const { invalid_reason: _r, score_text: _s, ...upstreamKeys } = good;
  const bad = { ...upstreamKeys, score: null, any_medal: false, gold_medal: false, above_median: false, valid_submission: false };
  fs.writeFileSync(path.join(beta, "2024-09-19T20-07-15-GMT_grading_report.json"), JSON.stringify({ total_runs: 2, competition_reports: [bad, upstreamKeys] }));
  // A third agent whose runs have manifests: three half-hour runs under a one-hour limit, two of them gold.
  const gamma = path.join(root, "c_run-group_gamma");
  writeTitanicGroup(dataDir, gamma, "gamma", [
    { seed: 0, submission: answers, wall: 1800, snapshots: [{ elapsed: 100, from: answers }] },
    { seed: 1, submission: answers, wall: 1800, snapshots: [] },
    { seed: 2, submission: sample, wall: 1800, snapshots: [] },
  ]);
  const facts: ManifestFacts[] = [
    {
      run_id: "titanic_0", seed: 0, wall_seconds: 1800, gpus: 1, models: [modelUse("gpt-4o", 10, 1000, 200, 0.25), modelUse("o3-mini", 2, 50, 10, null)],
      llm_cost_curve: [{ elapsed_seconds: 600, cost_usd: 0.1 }, { elapsed_seconds: 1200, cost_usd: 0.25 }],
      allowed_hosts: ["api.openai.com"], blocked_attempts: 3, validation: probingLog(10),
    },
    {
      run_id: "titanic_1", seed: 1, wall_seconds: 1800, gpus: 1, models: [modelUse("gpt-4o", 5, 500, 100, 0.125)],
      llm_cost_curve: [{ elapsed_seconds: 300, cost_usd: 0.125 }], allowed_hosts: ["api.openai.com"], validation: probingLog(9),
    },
    { run_id: "titanic_2", seed: 2, wall_seconds: 1800 },
  ];
  for (const f of facts) {
    const runDir = path.join(gamma, f.run_id);
    const record = JSON.parse(fs.readFileSync(path.join(runDir, "run.json"), "utf8")) as RunRecord;
    record.sandbox.limits.wallMs = 3_600_000;
    fs.writeFileSync(path.join(runDir, "run.json"), JSON.stringify(record));
    writeRunManifest(runDir, fakeManifest(f));
  }
});

describe("mlebench report", () => {
  let data: ReportData;
  let out = "";

  it("aggregates run groups and upstream grading reports into JSON, Markdown and HTML", () => {
    out = tempDir();
    const r = mlebench(["report", path.join(root, "a_run-group_alpha"), path.join(root, "b_run-group_beta", "2024-09-19T20-07-15-GMT_grading_report.json"), "--out", out, "--data-dir", dataDir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split("\n")).toEqual(["report.json", "report.md", "report.html"].map((f) => path.join(out, f)));
    data = JSON.parse(fs.readFileSync(path.join(out, "report.json"), "utf8"));
    expect(data.schema).toBe("mlebench-report/1");
    expect(data.options.competitions).toEqual(["titanic"]);
    expect(data.agents.map((a) => [a.agent, a.num_seeds])).toEqual([["alpha", 2], ["beta", 2]]);
  });

  it("computes the paper's columns per seed, pass@k and effort (hand-computed)", () => {
    const [alpha, beta] = data.agents;
    expect(alpha.splits.all!.metrics.any_medal).toMatchObject({ per_seed: [100, 0], mean: 50, sem: 50 });
    expect(alpha.splits.all!.metrics.valid_submission).toMatchObject({ per_seed: [100, 100], sem: 0 });
    expect(alpha.splits.low!.competitions).toBe(1);
    expect(alpha.pass_at_k).toEqual([{ k: 1, any_medal: 50 }, { k: 2, any_medal: 100 }]);
    // beta's file lists the invalid report first: seed 0 is the invalid one.
    expect(beta.splits.all!.metrics.valid_submission.per_seed).toEqual([0, 100]);
    expect(beta.per_competition.map((r) => [r.seed, r.valid_submission, r.medal])).toEqual([[0, false, null], [1, true, "gold"]]);
    expect(alpha.effort).toEqual({ runs: 2, wall_seconds_total: 340, wall_seconds_mean: 170, medals: 1, wall_seconds_per_medal: 340, tokens: null, cost_usd: null });
    expect(beta.effort.wall_seconds_total).toBeNull();
  });

  it("builds the any-medal curve over the time limit from graded snapshots", () => {
    const curve = data.agents[0].time_curve!;
    expect(curve).toHaveLength(24);
    expect(curve.map((p) => p.elapsed_seconds)).toEqual(Array.from({ length: 24 }, (_, i) => (i + 1) * 10));
    // seed 0: sample snapshot at 30 s (no medal), perfect one at 60 s, ends at 100 s with a medal; seed 1 never medals.
    expect(curve.slice(0, 5).map((p) => p.any_medal.mean)).toEqual([0, 0, 0, 0, 0]);
    expect(curve.slice(5).every((p) => p.any_medal.mean === 50 && p.any_medal.sem === 50)).toBe(true);
    expect(data.agents[1].time_curve).toBeNull();
  });

  it("writes Markdown tables with mean ± SEM", () => {
    const md = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(md).toContain("| alpha | 100.0 ± 0.0 | 100.0 ± 0.0 | 50.0 ± 50.0 | 0.0 ± 0.0 | 0.0 ± 0.0 | 50.0 ± 50.0 | 50.0 ± 50.0 |");
    expect(md).toContain("| alpha | 50.0 | 100.0 |");
    expect(md).toContain("| titanic | 0 | - |"); // beta's invalid seed has no score
  });

  it("needs complete seeds unless --pad-missing, and checks its flags (exit 2)", () => {
    const group = path.join(root, "a_run-group_alpha");
    const r1 = mlebench(["report", group, "--split", "offline", "--out", tempDir(), "--data-dir", dataDir]);
    expect(r1.status).toBe(2);
    // Every offline competition but titanic, the first five named.
    expect(r1.stderr).toContain(`No reports for ${OFFLINE.length - 1} competition(s): ${OFFLINE.slice(1, 6).join(", ")}, ...; report on a --split`);
    const out2 = tempDir();
    const r2 = mlebench(["report", group, "--split", "offline", "--pad-missing", "--format", "json", "--out", out2, "--data-dir", dataDir]);
    expect(r2.status, r2.stderr).toBe(0);
    const padded = JSON.parse(fs.readFileSync(path.join(out2, "report.json"), "utf8")) as ReportData;
    expect(padded.agents[0].splits.all!.metrics.any_medal.per_seed.map((x) => Number(x.toFixed(6)))).toEqual([Number((100 / OFFLINE.length).toFixed(6)), 0]);
    expect(fs.existsSync(path.join(out2, "report.html"))).toBe(false);
    expect(mlebench(["report", group, "--format", "pdf"]).stderr).toContain('--format: "pdf" is not one of html, md, json');
    expect(mlebench(["report", group, "--split", "nope"]).status).toBe(2);
    expect(mlebench(["report", path.join(root, "nothing")]).stderr).toContain("does not exist");
    expect(mlebench(["report", root]).stderr).toContain("is not a run group (no metadata.json)");
  });
});

describe("mlebench report: transparency and cost-normalised results", () => {
  let data: ReportData;
  let out = "";
  const gammaDir = () => path.join(root, "c_run-group_gamma");

  it("reads each run's manifest beside run.json", () => {
    out = tempDir();
    const r = mlebench(["report", path.join(root, "a_run-group_alpha"), path.join(root, "b_run-group_beta", "2024-09-19T20-07-15-GMT_grading_report.json"), gammaDir(), "--out", out, "--data-dir", dataDir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    data = JSON.parse(fs.readFileSync(path.join(out, "report.json"), "utf8"));
    expect(data.agents.map((a) => [a.agent, a.num_seeds, a.transparency.recorded_runs])).toEqual([["alpha", 2, 0], ["beta", 2, 0], ["gamma", 3, 3]]);
  });

  it("sums what gamma's runs were given and used (hand-computed)", () => {
    const t = data.agents[2].transparency;
    expect(t).toMatchObject({
      runs: 3, time_limit_seconds: [3600], wall_seconds_total: 5400, wall_seconds_mean: 1800, llm_calls: 17, input_tokens: 1550, output_tokens: 310,
      cost_usd: 0.375, unpriced_calls: 2, network: { modes: ["none", "proxy"], allowed_hosts: ["api.openai.com"], blocked_attempts: 3 },
      validation_calls_mean: 7, validation_calls_max: 11,
    });
    expect(t.hardware).toEqual([
      { cpu_model: "AMD EPYC 7763", cpus_given: 8, memory_limit_bytes: 64 * 2 ** 30, gpus: [{ model: "NVIDIA H200", memory_bytes: 141 * 2 ** 30 }], runs: 2 },
      { cpu_model: "AMD EPYC 7763", cpus_given: 8, memory_limit_bytes: 64 * 2 ** 30, gpus: [], runs: 1 },
    ]);
    expect(t.models.map((m) => [m.model, m.calls, m.cost_usd])).toEqual([["gpt-4o", 15, 0.375], ["o3-mini", 2, null]]);
    // Ten one-line edits flag titanic_0; nine do not flag titanic_1. Advisory: both gold medals stand.
    expect(t.probing).toMatchObject({ checked: 3, flagged: 1, run_ids: ["titanic_0"] });
    expect(data.agents[2].per_competition.map((r) => r.medal)).toEqual(["gold", "gold", null]);
    // The effort table's tokens and cost now come from the manifests.
    expect(data.agents[2].effort).toMatchObject({ runs: 3, wall_seconds_total: 5400, medals: 2, tokens: 1860, cost_usd: 0.375 });
    expect(data.agents[0].transparency).toMatchObject({ runs: 2, recorded_runs: 0, hardware: [], llm_calls: null, cost_usd: null, network: null });
    expect(data.agents[0].effort).toMatchObject({ tokens: null, cost_usd: null });
  });

  it("divides medals by run-hours, GPU-hours and dollars, and compares at an equal time budget", () => {
    const [alpha, beta, gamma] = data.agents.map((a) => a.cost_normalised);
    // 2 medals over 3 runs of half an hour; two of them held one GPU; $0.25 + $0.125 of priced calls.
    expect(gamma).toMatchObject({ runs: 3, medals: 2, run_hours: 1.5, gpu_hours: 1, cost_usd: 0.375 });
    expect(gamma.medals_per_run_hour).toEqual({ value: 2 / 1.5, reason: null });
    expect(gamma.medals_per_gpu_hour).toEqual({ value: 2, reason: null });
    expect(gamma.medals_per_usd).toEqual({ value: 2 / 0.375, reason: null });
    // alpha has no manifests: run.json's wall times (100 s + 240 s) still give run-hours.
    expect(alpha).toMatchObject({ medals: 1, run_hours: 340 / 3600, gpu_hours: null, cost_usd: null });
    expect(alpha.medals_per_run_hour.value).toBeCloseTo(3600 / 340, 12);
    expect(alpha.medals_per_gpu_hour).toEqual({ value: null, reason: "not recorded" });
    expect(beta).toMatchObject({ run_hours: null, medals_per_run_hour: { value: null, reason: "not recorded" }, equal_budget: null });
    // alpha's limit (240 s) is the smaller horizon; gamma's curve steps by 150 s, so it is read at 150 s,
    // where only titanic_0 has a snapshot (the perfect one, taken at 100 s).
    expect(data.equal_budget_seconds).toBe(240);
    expect(alpha.equal_budget).toMatchObject({ budget_seconds: 240, elapsed_seconds: 240, any_medal: { per_seed: [100, 0], mean: 50 } });
    expect(gamma.equal_budget).toMatchObject({ budget_seconds: 240, elapsed_seconds: 150, fraction: 1 / 24, any_medal: { per_seed: [100, 0, 0] } });
    expect(gamma.equal_budget!.any_medal.mean).toBeCloseTo(100 / 3, 12);
  });

  it("writes both tables with their definitions to Markdown and HTML", () => {
    const md = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(md).toContain("| gamma | 3 | 1h30m | 30m00s | 2 | 45m00s | 1860 | 0.3750 |"); // effort, tokens and cost from the manifests
    expect(md).toContain("## Transparency");
    // One row per fact, one column per agent (alpha, beta, gamma).
    expect(md).toContain("|  | alpha | beta | gamma |");
    expect(md).toContain("| Runs recorded | 0 of 2 | 0 of 2 | 3 of 3 |");
    expect(md).toContain(
      "| Hardware | not recorded | not recorded | AMD EPYC 7763, 8 CPUs, 64 GiB memory, 1× NVIDIA H200 (141 GiB) (2 runs); AMD EPYC 7763, 8 CPUs, 64 GiB memory, no GPU (1 run) |",
    );
    expect(md).toContain("| Time limit | not recorded | not recorded | 1h00m |");
    expect(md).toContain("| Wall time (total) | not recorded | not recorded | 1h30m |");
    expect(md).toContain("| Wall time (mean) | not recorded | not recorded | 30m00s |");
    expect(md).toContain("| Models | not recorded | not recorded | gpt-4o (15 calls), o3-mini (2 calls) |");
    expect(md).toContain("| LLM calls | not recorded | not recorded | 17 |");
    expect(md).toContain("| Tokens in | not recorded | not recorded | 1550 |");
    expect(md).toContain("| Tokens out | not recorded | not recorded | 310 |");
    expect(md).toContain("| LLM cost (USD) | not recorded | not recorded | 0.3750 (+ 2 unpriced calls) |");
    expect(md).toContain("| Network (allowed hosts) | not recorded | not recorded | api.openai.com |");
    expect(md).toContain("| Blocked attempts | not recorded | not recorded | 3 |");
    expect(md).toContain("| Validation calls per run (mean) | not recorded | not recorded | 7.0 |");
    expect(md).toContain("| Validation calls per run (max) | not recorded | not recorded | 11 |");
    expect(md).toContain("| Flagged as probing | not recorded | not recorded | 1 of 3 |");
    expect(md).toContain("Flagged as probing, gamma: titanic_0 (10 near-identical uploads of 11 calls).");
    expect(md).toContain("## Cost-normalised results");
    expect(md).toContain(
      "| Agent | Runs | Any medals | Run-hours | Medals per run-hour | GPU-hours | Medals per GPU-hour | LLM cost (USD) | Medals per USD | Any medal (%) at equal time | Any medal (%) at equal LLM cost |",
    );
    // gamma alone has costs, so its largest run cost is the budget and no run of it is cut.
    expect(md).toContain("| gamma | 3 | 2 | 1.50 | 1.333 | 1.00 | 2.000 | 0.3750 | 5.333 | 33.3 ± 33.3 (at 2m30s) | 66.7 ± 33.3 (at 0.2500 a run) |");
    expect(md).toContain("| alpha | 2 | 1 | 0.09 | 10.588 | not recorded | not recorded | not recorded | not recorded | 50.0 ± 50.0 (at 4m00s) | not recorded |");
    expect(md).toContain("| beta | 2 | 1 | not recorded | not recorded | not recorded | not recorded | not recorded | not recorded | not recorded | not recorded |");
    expect(md).toContain("Equal time: the any-medal rate (mean ± SEM over seeds) from the time curve");
    expect(md).toContain("Equal LLM cost: every run is held to the same LLM spend, the smallest of the agents' largest run costs (0.2500 a run)");
    expect(md).toContain("the smallest of the agents' time-curve horizons (4m00s)");
    const html = fs.readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toContain("<h2>Transparency</h2>");
    expect(html).toContain('<table id="table-transparency" class="sortable">');
    expect(html).toContain("<h2>Cost-normalised results</h2>");
    expect(html).toContain('<table id="table-cost" class="sortable">');
    expect(html).toContain('<td data-sort="2">2.000</td>');
    expect(html).toContain("Equal LLM cost: every run is held to the same LLM spend");
  });

  it("compares at an equal LLM cost: runs that spent past it count with their last snapshot before", () => {
    // zeta spends up to $0.40 a run, eta up to $0.15: the budget is $0.15.
    const zeta = path.join(root, "e_run-group_zeta");
    writeTitanicGroup(dataDir, zeta, "zeta", [
      { seed: 0, submission: answers, wall: 500, snapshots: [{ elapsed: 100, from: sample }, { elapsed: 300, from: answers }] },
      { seed: 1, submission: answers, wall: 500, snapshots: [] },
    ]);
    const eta = path.join(root, "f_run-group_eta");
    writeTitanicGroup(dataDir, eta, "eta", [
      { seed: 0, submission: sample, wall: 500, snapshots: [] },
      { seed: 1, submission: answers, wall: 500, snapshots: [{ elapsed: 60, from: answers }] },
    ]);
    const curve = (...p: [number, number][]) => p.map(([elapsed_seconds, cost_usd]) => ({ elapsed_seconds, cost_usd }));
    const manifests: [string, ManifestFacts][] = [
      // Past $0.15 at 200 s: it counts with its 100 s snapshot, the sample (no medal), not its final gold.
      [zeta, { run_id: "titanic_0", seed: 0, wall_seconds: 500, models: [modelUse("gpt-4o", 3, 3, 3, 0.4)], llm_cost_curve: curve([50, 0.05], [200, 0.2], [400, 0.4]) }],
      [zeta, { run_id: "titanic_1", seed: 1, wall_seconds: 500, models: [modelUse("gpt-4o", 1, 1, 1, 0.02)], llm_cost_curve: curve([10, 0.02]) }],
      [eta, { run_id: "titanic_0", seed: 0, wall_seconds: 500, models: [modelUse("gpt-4o", 1, 1, 1, 0.1)], llm_cost_curve: curve([100, 0.1]) }],
      // Exactly at the budget is not past it.
      [eta, { run_id: "titanic_1", seed: 1, wall_seconds: 500, models: [modelUse("gpt-4o", 2, 2, 2, 0.15)], llm_cost_curve: curve([30, 0.05], [90, 0.15]) }],
    ];
    for (const [group, f] of manifests) writeRunManifest(path.join(group, f.run_id), fakeManifest(f));
    const out3 = tempDir();
    const r = mlebench(["report", zeta, eta, "--format", "json,md", "--out", out3, "--data-dir", dataDir]);
    expect(r.status, r.stderr).toBe(0);
    const d = JSON.parse(fs.readFileSync(path.join(out3, "report.json"), "utf8")) as ReportData;
    expect(d.equal_cost_usd).toBe(0.15);
    const [z, e] = d.agents.map((a) => a.cost_normalised.equal_cost!);
    expect(z).toMatchObject({ budget_usd: 0.15, runs_cut: 1, any_medal: { per_seed: [0, 100], mean: 50 } });
    expect(e).toMatchObject({ budget_usd: 0.15, runs_cut: 0, any_medal: { per_seed: [0, 100], mean: 50 } });
    expect(d.agents[0].splits.all!.metrics.any_medal.mean).toBe(100);
    expect(fs.readFileSync(path.join(out3, "report.md"), "utf8")).toMatch(/^\| zeta \| 2 \| 2 \|.*\| 50\.0 ± 50\.0 \(at 0\.1500 a run\) \|$/m);
  });

  it("warns about a malformed manifest, naming the file, and still builds the report", () => {
    const group = path.join(root, "d_run-group_delta");
    writeTitanicGroup(dataDir, group, "delta", [{ seed: 0, submission: answers, wall: 60, snapshots: [] }, { seed: 1, submission: sample, wall: 60, snapshots: [] }]);
    const file = path.join(group, "titanic_0", "manifest.json");
    fs.writeFileSync(file, JSON.stringify({ schema: "mlebench-manifest/1", run_id: 7 }));
    // A manifest that is a link is not the harness's, however valid what it points at.
    const linked = path.join(group, "titanic_1", "manifest.json");
    fs.symlinkSync(path.join(gammaDir(), "titanic_0", "manifest.json"), linked);
    const out2 = tempDir();
    const r = mlebench(["report", group, "--format", "json,md", "--out", out2, "--data-dir", dataDir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: ${file} is not a valid run manifest (mlebench-manifest/1): run_id:`);
    expect(r.stderr).toContain("its run's usage shows as not recorded");
    expect(r.stderr).toContain(`warning: ${linked} is not a regular file; its run's usage shows as not recorded`);
    const d = JSON.parse(fs.readFileSync(path.join(out2, "report.json"), "utf8")) as ReportData;
    expect(d.warnings.some((w) => w.startsWith(`${file} is not a valid run manifest`))).toBe(true);
    expect(d.agents[0].transparency.recorded_runs).toBe(0);
    expect(d.agents[0].cost_normalised).toMatchObject({ runs: 2, medals: 1, run_hours: 120 / 3600, medals_per_usd: { value: null, reason: "not recorded" } });
    expect(fs.readFileSync(path.join(out2, "report.md"), "utf8")).toContain(`> warning: ${file} is not a valid run manifest`);
  });
});

const CHROMIUM = "/usr/bin/chromium";

describe.skipIf(!fs.existsSync(CHROMIUM))("the HTML report in headless Chromium", () => {
  it("shows the charts and tables, with the JSON's numbers", async () => {
    const out = tempDir();
    const r = mlebench(["report", path.join(root, "a_run-group_alpha"), path.join(root, "b_run-group_beta", "2024-09-19T20-07-15-GMT_grading_report.json"), path.join(root, "c_run-group_gamma"), "--out", out, "--data-dir", dataDir]);
    expect(r.status, r.stderr).toBe(0);
    const data = JSON.parse(fs.readFileSync(path.join(out, "report.json"), "utf8")) as ReportData;
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const requests: string[] = [];
      page.on("request", (q) => requests.push(q.url()));
      await page.goto(`file://${path.join(out, "report.html")}`);
      expect(await page.locator("svg.chart").evaluateAll((els) => els.map((e) => e.id))).toEqual(["chart-medals", "chart-passk", "chart-time", "chart-strip"]);
      const bars = await page.locator("#chart-medals rect.bar").evaluateAll((els) =>
        els.map((e) => [e.getAttribute("data-series"), e.getAttribute("data-category"), Number(e.getAttribute("data-value"))]),
      );
      expect(bars).toContainEqual(["alpha", "All", data.agents[0].splits.all!.metrics.any_medal.mean]);
      expect(bars).toContainEqual(["beta", "Low", data.agents[1].splits.low!.metrics.any_medal.mean]);
      const row = await page.locator("#table-split-all tbody tr").first().locator("td").allTextContents();
      expect(row[0]).toBe("alpha");
      expect(row[7]).toBe(`${data.agents[0].splits.all!.metrics.any_medal.mean.toFixed(1)} ± ${data.agents[0].splits.all!.metrics.any_medal.sem.toFixed(1)}`);
      expect(await page.locator("#chart-passk circle.point").count()).toBe(data.agents.reduce((n, a) => n + a.pass_at_k.length, 0));
      expect(await page.locator("#chart-strip line.threshold").count()).toBe(4);
      // Sorting: a click on "Any medal (%)" orders rows ascending by the raw mean.
      await page.locator("#table-split-all th", { hasText: "Any medal (%)" }).click();
      const order = await page.locator("#table-split-all tbody tr td:first-child").allTextContents();
      const means = data.agents.map((a) => [a.agent, a.splits.all!.metrics.any_medal.mean] as const);
      expect(order).toEqual([...means].sort((a, b) => a[1] - b[1]).map((m) => m[0]));
      // The transparency and cost-normalised tables are on the page, with the JSON's numbers.
      for (const heading of ["Transparency", "Cost-normalised results"]) await expect.poll(() => page.getByRole("heading", { name: heading, exact: true }).isVisible()).toBe(true);
      const rowOf = (table: string, first: string) => page.locator(`#${table} tbody tr`, { has: page.locator("td:first-child", { hasText: first }) }).locator("td");
      expect(await page.locator("#table-transparency").isVisible()).toBe(true);
      expect(await page.locator("#table-transparency th").allTextContents()).toEqual(["", "alpha", "beta", "gamma"]);
      expect(await rowOf("table-transparency", "LLM calls").allTextContents()).toEqual(["LLM calls", "not recorded", "not recorded", String(data.agents[2].transparency.llm_calls)]);
      expect(await rowOf("table-transparency", "Flagged as probing").nth(3).isVisible()).toBe(true);
      expect(await rowOf("table-transparency", "Flagged as probing").nth(3).textContent()).toBe("1 of 3");
      expect(await page.locator("#table-cost").isVisible()).toBe(true);
      const gammaRow = (table: string) => rowOf(table, "gamma");
      const cost = await gammaRow("table-cost").allTextContents();
      expect(cost[4]).toBe(data.agents[2].cost_normalised.medals_per_run_hour.value!.toFixed(3));
      expect(await gammaRow("table-cost").nth(4).isVisible()).toBe(true);
      const embedded = JSON.parse((await page.locator("#report-data").textContent()) ?? "{}");
      expect(embedded.agents[0].pass_at_k).toEqual(data.agents[0].pass_at_k);
      expect(requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
      const artifacts = path.join(REPO, "test-artifacts");
      fs.mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: path.join(artifacts, "report.png"), fullPage: true });
      await page.locator("#table-transparency").screenshot({ path: path.join(artifacts, "report-transparency.png") });
      await page.locator("#table-cost").screenshot({ path: path.join(artifacts, "report-cost.png") });
      expect(fs.statSync(path.join(artifacts, "report.png")).size).toBeGreaterThan(10_000);
    } finally {
      await browser.close();
    }
  });
});
