import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getCompetition, loadCompetition } from "../../src/competitions/registry.js";
import { OFFLINE } from "../../src/competitions/splits.js";
import { competitionPaths } from "../../src/core/paths.js";
import { gradeSubmission } from "../../src/grading/grade.js";
import type { ReportData } from "../../src/report/build.js";
import { REPO, mlebench } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir, writeTitanicGroup } from "../helpers/runs.js";

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

const CHROMIUM = "/usr/bin/chromium";

describe.skipIf(!fs.existsSync(CHROMIUM))("the HTML report in headless Chromium", () => {
  it("shows the charts and tables, with the JSON's numbers", async () => {
    const out = tempDir();
    const r = mlebench(["report", path.join(root, "a_run-group_alpha"), path.join(root, "b_run-group_beta", "2024-09-19T20-07-15-GMT_grading_report.json"), "--out", out, "--data-dir", dataDir]);
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
      expect(await page.locator("#chart-passk circle.point").count()).toBe(4);
      expect(await page.locator("#chart-strip line.threshold").count()).toBe(4);
      // Sorting: a click on "Any medal (%)" orders rows ascending by the raw mean.
      await page.locator("#table-split-all th", { hasText: "Any medal (%)" }).click();
      const order = await page.locator("#table-split-all tbody tr td:first-child").allTextContents();
      const means = data.agents.map((a) => [a.agent, a.splits.all!.metrics.any_medal.mean] as const);
      expect(order).toEqual([...means].sort((a, b) => a[1] - b[1]).map((m) => m[0]));
      const embedded = JSON.parse((await page.locator("#report-data").textContent()) ?? "{}");
      expect(embedded.agents[0].pass_at_k).toEqual(data.agents[0].pass_at_k);
      expect(requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
      const artifacts = path.join(REPO, "test-artifacts");
      fs.mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: path.join(artifacts, "report.png"), fullPage: true });
      expect(fs.statSync(path.join(artifacts, "report.png")).size).toBeGreaterThan(10_000);
    } finally {
      await browser.close();
    }
  });
});
