// The viewer over real runs, made by the CLI as users make them (default sandbox): an AIDE run and an
// external run (MLE-bench groups, graded) and an MLAgentBench research run by the research agent,
// each against the fake LLM server. The numbers it shows are checked against the files the runs left.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/view/server.js";
import { mlebenchAsync, REPO } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, openaiToolCall, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";
import { titanicDataDir } from "../helpers/runs.js";
import { getSandboxBackend } from "../../src/sandbox/registry.js";

const bwrapMissing = await getSandboxBackend("bwrap").unavailable();
const CHROMIUM = "/usr/bin/chromium";

const NODE_0 = `import glob, shutil
shutil.copy(sorted(glob.glob("./input/*submission*.csv"))[0], "./submission/submission.csv")
print("Validation accuracy: 0.5")`;
const NODE_1 = NODE_0.replace("0.5", "0.6") + "\nprint('tuned')";
const NODE_2 = NODE_1.replace("tuned", "tuned again");
const HOSTILE = "<script>window.pwned = 1</script><img src=x onerror=\"window.pwned=2\">\x1b[31mred\x1b[0m";
const EXTERNAL = [
  "mkdir -p /home/code && printf 'import lightgbm\\nprint(\"fit\")\\n' > /home/code/solution.py",
  `printf '%s\\n' '${HOSTILE}'`,
  "cp /home/data/sample_submission.csv /home/submission/submission.csv",
  "bash /home/validate_submission.sh /home/submission/submission.csv",
  "sleep 2.5",
].join("\n");
const TRAIN_1 = "print('first version')\n";
const TRAIN_2 = "print('first version')\nprint('second version')\n";

function research(action: string, input: unknown): string {
  return `Reflection: looked at it\nResearch Plan and Status: 1. write train.py\nFact Check: none\nThought: write it\nAction: ${action}\nAction Input: ${JSON.stringify(input)}\n`;
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));
const readLines = (file: string) => fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));

let llm: FakeLLM;
let dataDir: string;
let runs: string;
const made: Record<"aide" | "external" | "mlab", { group: string; run: string }> = {} as never;

describe.skipIf(bwrapMissing !== null)("mlebench view over real runs", () => {
  beforeAll(async () => {
    llm = await startFakeLLM();
    dataDir = await titanicDataDir();
    runs = tempDir("view-real-runs-");
    const env = { MLEBENCH_LLM_MODEL: `compat/fake@${llm.openaiBaseUrl}` };
    const review = (metric: number) => openaiToolCall("submit_review", { is_bug: false, summary: `metric ${metric}`, metric, lower_is_better: false }, "call_1", { input: 900, output: 30 });
    llm.script(
      openaiText(`Copy the sample.\n\n\`\`\`python\n${NODE_0}\n\`\`\``, { input: 1200, output: 80 }),
      review(0.5),
      openaiText(`Print more.\n\n\`\`\`python\n${NODE_1}\n\`\`\``, { input: 1300, output: 90 }),
      review(0.6),
      { status: 429, headers: { "retry-after": "0" }, body: { error: { message: "Rate limit reached" } } },
      openaiText(`Again.\n\n\`\`\`python\n${NODE_2}\n\`\`\``, { input: 1400, output: 95 }),
      review(0.7),
    );
    const common = ["-c", "titanic", "--data-dir", dataDir, "--runs-dir", runs, "--json", "--grade", "--time-limit", "5m", "--snapshot-every", "1s"];
    const aide = await mlebenchAsync(["run", "--agent", "aide", "--aide-steps", "3", "--aide-drafts", "1", ...common], env);
    expect(aide.status, aide.stderr).toBe(0);
    expect(llm.pending()).toBe(0);
    const ext = await mlebenchAsync(["run", "--agent", "external", "--agent-cmd", EXTERNAL, ...common], {});
    expect(ext.status, ext.stderr).toBe(0);
    for (const [name, r] of [["aide", aide], ["external", ext]] as const) {
      const out = JSON.parse(r.stdout) as { dir: string; runs: { run_id: string }[] };
      made[name] = { group: path.basename(out.dir), run: out.runs[0]!.run_id };
    }
    llm.script(
      openaiText(research("Write File", { file_name: "train.py", content: TRAIN_1 })),
      openaiText(research("Write File", { file_name: "train.py", content: TRAIN_2 })),
      openaiText(research("Final Answer", { final_answer: "two versions written" })),
    );
    const mlab = await mlebenchAsync(["tasks", "run", "-t", "vectorization", "--agent", "mlab", "--max-steps", "4", "--time-limit", "5m", "--runs-dir", runs, "--data-dir", tempDir("view-task-data-"), "--json"], env);
    expect(mlab.status, mlab.stderr).toBe(0);
    made.mlab = { group: path.basename((JSON.parse(mlab.stdout) as { group_dir: string }).group_dir), run: "vectorization-seed0" };
  }, 600_000);
  afterAll(() => llm?.close());

  let server: ViewServer;
  beforeAll(async () => {
    server = await startViewServer({ roots: [runs], host: "127.0.0.1", port: 0, dataDir });
  });
  afterAll(() => server?.close());
  const api = async (p: string) => {
    const r = await fetch(new URL(p, server.url));
    return { status: r.status, body: (await r.json()) as any };
  };
  const runDir = (k: keyof typeof made) => path.join(runs, made[k].group, made[k].run);
  const runApi = (k: keyof typeof made) => `/api/groups/${made[k].group}/runs/${made[k].run}`;

  it("lists the three groups with their kinds and outcomes", async () => {
    const { body } = await api("/api/groups");
    expect(body.map((g: any) => [g.id, g.kind, g.agent_id, g.totals.runs])).toEqual(
      [[made.aide.group, "mle", "aide", 1], [made.external.group, "mle", "external", 1], [made.mlab.group, "research", "mlab (compat/fake@" + llm.openaiBaseUrl + ")", 1]].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    const research = (await api(`/api/groups/${made.mlab.group}`)).body;
    const rec = readJson(path.join(runDir("mlab"), "run.json"));
    expect(research.runs).toEqual([{ run_id: "vectorization-seed0", competition_id: "vectorization", seed: 0, status: rec.status, exit_reason: rec.stop, wall_seconds: rec.wall_seconds, score: null, valid_submission: null, any_medal: null }]);
  });

  it("shows the AIDE tree, its code versions and the change of each node from its parent", async () => {
    const journal = readJson(path.join(runDir("aide"), "logs", "journal.json"));
    const tree = (await api(`${runApi("aide")}/aide`)).body;
    expect(tree.best_id).toBe(journal.bestId);
    expect(tree.nodes.map((n: any) => [n.id, n.parent_id, n.stage, n.metric, n.depth])).toEqual(
      journal.nodes.map((n: any, i: number) => [n.id, n.parentId, n.stage, n.metric, i]),
    );
    expect(journal.nodes.map((n: any) => [n.stage, n.metric])).toEqual([["draft", 0.5], ["improve", 0.6], ["improve", 0.7]]);
    const code = (await api(`${runApi("aide")}/code`)).body;
    expect(code.final).toBe("logs/best_solution.py");
    expect(code.versions.map((v: any) => v.ref)).toEqual(["aide/0", "aide/1", "aide/2", "logs/best_solution.py", "code/node_0.py", "code/node_1.py", "code/node_2.py"]);
    const diff = (await api(`/api/diff?ag=${made.aide.group}&ar=${made.aide.run}&aref=aide/2`)).body;
    expect(diff).toEqual({
      a: "aide/1", b: "aide/2", added: 1, removed: 1, capped: null,
      diff: "--- \n+++ \n@@ -1,4 +1,4 @@\n import glob, shutil\n shutil.copy(sorted(glob.glob(\"./input/*submission*.csv\"))[0], \"./submission/submission.csv\")\n print(\"Validation accuracy: 0.6\")\n-print('tuned')\n\\ No newline at end of file\n+print('tuned again')\n\\ No newline at end of file\n",
    });
  });

  it("merges the run's LLM calls, nodes, validation calls and snapshots into one timeline", async () => {
    const calls = readLines(path.join(runDir("aide"), "logs", "llm.jsonl"));
    expect(calls.map((c: any) => c.attempts)).toEqual([1, 1, 1, 1, 2, 1]);
    const tl = (await api(`${runApi("aide")}/timeline`)).body;
    const kinds = tl.events.map((e: any) => e.kind);
    expect(kinds[0]).toBe("start");
    expect(kinds.at(-1)).toBe("end");
    expect(kinds.filter((k: string) => k === "llm")).toHaveLength(calls.length);
    expect(kinds.filter((k: string) => k === "node")).toHaveLength(3);
    const rec = readJson(path.join(runDir("aide"), "run.json"));
    expect(kinds.filter((k: string) => k === "snapshot")).toHaveLength(rec.snapshots.length);
    expect(tl.events.find((e: any) => e.ref === "llm/4").label).toContain("2 attempts");
    expect(tl.events.map((e: any) => e.time)).toEqual([...tl.events.map((e: any) => e.time)].sort());

    const ext = (await api(`${runApi("external")}/timeline`)).body;
    const manifest = readJson(path.join(runDir("external"), "manifest.json"));
    expect(manifest.validation.calls).toBe(1);
    expect(ext.events.filter((e: any) => e.kind === "validation").map((e: any) => [e.time, e.label])).toEqual([[manifest.validation.log[0].time, "validation call /validate: valid"]]);
  });

  it("grades each snapshot harness-side: the sample submission scores what the run's report says", async () => {
    const report = readJson(path.join(runDir("external"), "grading_report.json"));
    const rec = readJson(path.join(runDir("external"), "run.json"));
    expect(rec.snapshots.length).toBeGreaterThan(0);
    const snaps = (await api(`${runApi("external")}/snapshots`)).body;
    expect(snaps.map((s: any) => [s.file, s.elapsed_seconds, s.graded, s.score, s.valid, s.medal])).toEqual(
      rec.snapshots.map((s: any) => [s.file, s.elapsed_seconds, true, report.score, true, null]),
    );
  });

  it("shows the research run's steps with the agent's reasoning, and each version of train.py with its change", async () => {
    const trace = readJson(path.join(runDir("mlab"), "trace", "trace.json"));
    const steps = (await api(`${runApi("mlab")}/steps`)).body;
    expect(steps.map((s: any) => [s.step, s.action, s.observation, s.changed])).toEqual(trace.steps.map((s: any) => [s.step, s.action.name, s.observation, s.files.changed]));
    expect(steps.map((s: any) => s.action)).toEqual(["Write File", "Write File", "Final Answer"]);
    expect(steps[0].reasoning).toEqual({ Reflection: "looked at it", "Research Plan and Status": "1. write train.py", "Fact Check": "none", Thought: "write it" });
    const diff = (await api(`/api/diff?ag=${made.mlab.group}&ar=${made.mlab.run}&aref=step/1/train.py`)).body;
    expect(diff).toMatchObject({ a: "step/0/train.py", b: "step/1/train.py", added: 1, removed: 0 });
    expect(diff.diff).toBe("--- \n+++ \n@@ -1 +1,2 @@\n print('first version')\n+print('second version')\n");
  });

  it("searches code, LLM calls and logs across the groups", async () => {
    const code = (await api("/api/search?q=LIGHTGBM&in=code")).body;
    expect(code.hits).toEqual([{ group: made.external.group, run_id: made.external.run, competition_id: "titanic", where: "code/solution.py", line: 1, excerpt: "import lightgbm" }]);
    const retried = (await api("/api/search?q=&in=llm&retried=1")).body;
    expect(retried.hits.map((h: any) => [h.group, h.where])).toEqual([[made.aide.group, "llm/4"]]);
    const logs = (await api("/api/search?q=window.pwned&in=logs")).body;
    // The agent's output is in its log and in the run's log, and nowhere else.
    expect(logs.hits.map((h: any) => [h.run_id, h.where])).toEqual([[made.external.run, "logs/agent.log"], [made.external.run, "run.log"]]);
  });

  it("reports the MLE-bench groups side by side, each competition row naming its run", async () => {
    const report = (await api("/api/report")).body;
    expect(report.agents.map((a: any) => a.agent)).toEqual(["aide", "external"]);
    for (const [i, k] of (["aide", "external"] as const).entries()) {
      const graded = readJson(path.join(runDir(k), "grading_report.json"));
      expect(report.agents[i].per_competition.map((r: any) => [r.competition_id, r.score, r.medal, r.run])).toEqual([["titanic", graded.score, null, { group: made[k].group, run_id: made[k].run }]]);
    }
  });

  it("links report.html's runs into the viewer with `mlebench report --viewer`", async () => {
    const out = tempDir("view-report-");
    const groups = [made.aide.group, made.external.group].map((g) => path.join(runs, g));
    const r = await mlebenchAsync(["report", ...groups, "--out", out, "--format", "html", "--data-dir", dataDir, "--viewer", server.url], {});
    expect(r.status, r.stderr).toBe(0);
    const html = fs.readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toContain(`<a href="${server.url}#/g/${made.aide.group}/r/${made.aide.run}">${made.aide.run}</a>`);
    const bad = await mlebenchAsync(["report", ...groups, "--out", out, "--viewer", "javascript:alert(1)"], {});
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--viewer: expected the http:// address `mlebench view` printed, got "javascript:alert(1)"');
  });

  it.skipIf(!fs.existsSync(CHROMIUM))("in Chromium: group → run → LLM call → code diff, numbers from the files, agent text as text, nothing from other origins", async () => {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
    const shots = path.join(REPO, "test-artifacts");
    fs.mkdirSync(shots, { recursive: true });
    try {
      const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      await page.goto(server.url);
      // Home: the groups and the paper's table, agents side by side (titanic is low complexity: rows "low" and "all").
      await expect.poll(() => page.locator("#paper-table tbody tr").count()).toBe(4);
      expect(await page.locator("#paper-table tbody tr td:first-child").allTextContents()).toEqual(["aide", "aide", "external", "external"]);
      await page.screenshot({ path: path.join(shots, "view-home.png"), fullPage: true });

      // Group → run.
      await page.getByRole("link", { name: made.aide.group }).click();
      await expect.poll(() => page.locator("#runs tbody tr").count()).toBe(1);
      const graded = readJson(path.join(runDir("aide"), "grading_report.json"));
      expect(await page.locator("#competition-table tbody tr td").nth(4).textContent()).toBe(String(graded.score));
      await page.locator("#runs").getByRole("link", { name: made.aide.run }).click();
      await expect.poll(() => page.locator("#aide-tree li").count()).toBe(3);
      const calls = readLines(path.join(runDir("aide"), "logs", "llm.jsonl"));
      await expect.poll(() => page.locator("#llm-calls tbody tr").count()).toBe(calls.length);
      expect(await page.locator("#llm-calls tbody tr").nth(0).locator("td").nth(3).textContent()).toBe(String(calls[0].usage.inputTokens));
      expect(await page.locator("#timeline tbody tr").count()).toBeGreaterThan(calls.length + 3);
      await page.screenshot({ path: path.join(shots, "view-aide-run.png"), fullPage: true });

      // → LLM call: its prompt and completion as the call log has them.
      await page.locator("#llm-calls").getByRole("link", { name: "0", exact: true }).click();
      await expect.poll(() => page.locator("#completion").textContent()).toBe(calls[0].response.text);
      expect(await page.locator("pre.message").allTextContents()).toEqual(calls[0].request.messages.map((m: any) => m.content));
      await page.screenshot({ path: path.join(shots, "view-llm-call.png"), fullPage: true });

      // → code diff: node 2 against its parent.
      await page.goBack();
      await page.locator("#aide-tree").getByRole("link", { name: "node 2" }).click();
      await expect.poll(() => page.locator("#diff-summary").textContent()).toBe("aide/1 → aide/2: 1 lines added, 1 removed");
      expect(await page.locator("#diff .add").allTextContents()).toEqual(["+print('tuned again')"]);
      expect(await page.locator("#diff .del").allTextContents()).toEqual(["-print('tuned')"]);
      expect(await page.locator("#code-text").textContent()).toBe(NODE_2);
      await page.screenshot({ path: path.join(shots, "view-code-diff.png"), fullPage: true });

      // The external run: its hostile output is text, its snapshots carry harness-side scores.
      await page.goto(`${server.url}#/g/${made.external.group}/r/${made.external.run}`);
      await expect.poll(async () => (await page.locator("#log-agent\\.log").textContent()) ?? "").toContain(HOSTILE.replaceAll("\x1b", "\u241b"));
      expect(await page.evaluate("globalThis.pwned")).toBeUndefined();
      expect(await page.locator("#log-agent\\.log script, #log-agent\\.log img").count()).toBe(0);
      const rec = readJson(path.join(runDir("external"), "run.json"));
      await expect.poll(() => page.locator("#snapshots tbody tr").count()).toBe(rec.snapshots.length);
      expect(await page.locator("#snapshots tbody tr").nth(0).locator("td").nth(2).textContent()).toBe(String(readJson(path.join(runDir("external"), "grading_report.json")).score));
      await page.screenshot({ path: path.join(shots, "view-external-run.png"), fullPage: true });

      // The research run: a step with its reasoning, then the file it changed, shown as a diff.
      await page.goto(`${server.url}#/g/${made.mlab.group}/r/${made.mlab.run}`);
      await page.locator("#steps").getByRole("link", { name: "step 1" }).click();
      await expect.poll(() => page.locator("#observation").textContent()).toBe(readJson(path.join(runDir("mlab"), "trace", "trace.json")).steps[1].observation);
      expect(await page.locator("pre.reasoning").first().textContent()).toBe("looked at it");
      await page.getByRole("link", { name: "train.py" }).click();
      await expect.poll(() => page.locator("#diff .add").allTextContents()).toEqual(["+print('second version')"]);
      await page.screenshot({ path: path.join(shots, "view-research-step.png"), fullPage: true });

      // Two runs' final code, and a search.
      await page.goto(`${server.url}#/diff?ag=${made.external.group}&ar=${made.external.run}&bg=${made.aide.group}&br=${made.aide.run}`);
      await expect.poll(() => page.locator("#diff-summary").textContent()).toBe("logs/best_solution.py → code/solution.py: 2 lines added, 4 removed");
      await page.goto(`${server.url}#/search?q=lightgbm&in=code`);
      await expect.poll(() => page.locator("#search-hits tbody tr").count()).toBe(1);
      await page.screenshot({ path: path.join(shots, "view-search.png"), fullPage: true });

      const origin = new URL(server.url).origin;
      expect(requests.filter((u) => !u.startsWith(origin))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
