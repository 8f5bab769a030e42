import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { competitionPaths } from "../../src/core/paths.js";
import { startViewServer, type ViewServer } from "../../src/view/server.js";
import { CLI, REPO } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { titanicDataDir, writeTitanicGroup } from "../helpers/runs.js";
import { asUser, TEST_USER, userUnavailable } from "../helpers/user.js";
import { startViewCli } from "../helpers/view.js";

// A group as `mlebench run --grade` leaves it, with an agent log that is hostile (markup, ANSI
// escapes) and larger than one page of the viewer's log reads.
let dataDir: string;
let runs: string;
let group: string;
let log: Buffer;
const HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned=2">\x1b[31mred\x1b[0m\n';

beforeAll(async () => {
  dataDir = await titanicDataDir();
  const pub = competitionPaths(dataDir, "titanic").public;
  runs = tempDir("view-runs-");
  group = path.join(runs, "2026-01-01T00-00-00-UTC_run-group_external");
  writeTitanicGroup(dataDir, group, "external", [
    { seed: 0, submission: path.join(pub, "sample_submission.csv"), wall: 60, snapshots: [] },
    { seed: 1, submission: path.join(pub, "sample_submission.csv"), wall: 90, snapshots: [] },
  ]);
  fs.mkdirSync(path.join(group, "titanic_0", "logs"), { recursive: true });
  log = Buffer.concat([Buffer.from(HOSTILE), Buffer.alloc((1 << 20) + 5000, "a"), Buffer.from("\nthe end\n")]);
  fs.writeFileSync(path.join(group, "titanic_0", "logs", "agent.log"), log);
  const calls = [
    {
      time: "2026-01-01T00:00:05.000Z", model: "openai/gpt-4o", latencyMs: 812, attempts: 1, error: null, costUsd: 0.0035, source: "provider",
      request: { messages: [{ role: "system", content: "You are a Kaggle grandmaster." }, { role: "user", content: "Plan for titanic <b>now</b>" }] },
      response: { text: "Use gradient boosting.", toolCalls: [], finishReason: "stop", model: "gpt-4o-2024-08-06" },
      usage: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 0 },
    },
    {
      time: "2026-01-01T00:00:09.000Z", model: "openai/gpt-4o", latencyMs: 30000, attempts: 3, error: "HTTP 429: rate limited", costUsd: null, source: "provider",
      request: { messages: [{ role: "user", content: "again" }] }, response: null, usage: null,
    },
  ];
  fs.writeFileSync(path.join(group, "titanic_0", "logs", "llm.jsonl"), calls.map((c) => JSON.stringify(c)).join("\n") + "\n{cut off");
  // Integrity checks' records, as `mlebench integrity` leaves them.
  const flag = { run: "titanic_0", check: "plagiarism", flagged: true, reason: "92% of lines match a public notebook", evidence: ["solution.py ~ kernel-123"] };
  fs.mkdirSync(path.join(group, "titanic_0", "integrity"), { recursive: true });
  fs.writeFileSync(path.join(group, "titanic_0", "integrity", "plagiarism.json"), JSON.stringify({ flags: [flag], details: {} }));
  fs.writeFileSync(path.join(group, "titanic_0", "integrity", "disqualified.json"), JSON.stringify({ reasons: ["plagiarism"], at: "2026-01-02T00:00:00Z" }));
  fs.mkdirSync(path.join(group, "titanic_1", "logs"), { recursive: true });
  fs.symlinkSync("/etc/passwd", path.join(group, "titanic_1", "logs", "agent.log"));
});

/** GET a path of a server, with the Host header a browser on that URL would send (or another). */
function get(port: number, p: string, host = `127.0.0.1:${port}`, method = "GET"): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: p, method, headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the viewer's server", () => {
  let server: ViewServer;
  beforeAll(async () => {
    server = await startViewServer({ roots: [runs], host: "127.0.0.1", port: 0 });
  });
  afterAll(() => server.close());

  it("lists groups and their runs with the run records' numbers", async () => {
    const gs = JSON.parse((await get(server.port, "/api/groups")).body);
    const id = path.basename(group);
    expect(gs).toEqual([{ id, kind: "mle", run_group: id, agent_id: "external", created_at: "x", totals: { runs: 2, completed: 2, graded: 2, medals: 0 } }]);
    const g = JSON.parse((await get(server.port, `/api/groups/${id}`)).body);
    const record = JSON.parse(fs.readFileSync(path.join(group, "titanic_0", "run.json"), "utf8"));
    expect(g.runs[0]).toEqual({
      run_id: "titanic_0", competition_id: "titanic", seed: 0, status: "completed", exit_reason: "finished", wall_seconds: 60,
      score: record.grading.score, valid_submission: true, any_medal: false,
    });
    const run = JSON.parse((await get(server.port, `/api/groups/${id}/runs/titanic_0`)).body);
    expect(run.logs.map((l: { name: string }) => l.name)).toEqual(["agent.log", "llm.jsonl"]);
    expect(run.logs[0]).toEqual({ name: "agent.log", bytes: log.length });
    expect(run.grading_report.score).toBe(record.grading.score);
    expect(run.integrity).toEqual({
      flags: [{ run: "titanic_0", check: "plagiarism", flagged: true, reason: "92% of lines match a public notebook", evidence: ["solution.py ~ kernel-123"] }],
      disqualified: { reasons: ["plagiarism"], at: "2026-01-02T00:00:00Z" },
      problem: null,
    });
    // The linked log of the other run is not listed, and not read.
    expect(JSON.parse((await get(server.port, `/api/groups/${id}/runs/titanic_1`)).body).logs).toEqual([]);
    const linked = await get(server.port, `/api/groups/${id}/runs/titanic_1/logs/agent.log`);
    expect(linked.status).toBe(404);
    expect(JSON.parse(linked.body).error).toBe("logs/agent.log: a symbolic link, not followed");
  });

  it("pages through a log larger than one read, byte for byte", async () => {
    const id = path.basename(group);
    const first = JSON.parse((await get(server.port, `/api/groups/${id}/runs/titanic_0/logs/agent.log`)).body);
    expect(first).toMatchObject({ size: log.length, offset: 0, next_offset: 1 << 20 });
    const second = JSON.parse((await get(server.port, `/api/groups/${id}/runs/titanic_0/logs/agent.log?offset=${first.next_offset}`)).body);
    expect(second.next_offset).toBeNull();
    expect(first.text + second.text).toBe(log.toString("utf8"));
    const bad = await get(server.port, `/api/groups/${id}/runs/titanic_0/logs/agent.log?offset=-1`);
    expect([bad.status, JSON.parse(bad.body).error]).toEqual([400, "offset must be a whole number ≥ 0"]);
  });

  it("lists a run's LLM calls a page at a time, and gives one call whole", async () => {
    const id = path.basename(group);
    const base = `/api/groups/${id}/runs/titanic_0/llm`;
    const page = JSON.parse((await get(server.port, base)).body);
    expect(page.total).toBe(3);
    expect(page.calls).toEqual([
      { index: 0, time: "2026-01-01T00:00:05.000Z", model: "openai/gpt-4o", input_tokens: 1200, output_tokens: 40, cost_usd: 0.0035, latency_ms: 812, attempts: 1, error: null, last_message: "user: Plan for titanic <b>now</b>" },
      { index: 1, time: "2026-01-01T00:00:09.000Z", model: "openai/gpt-4o", input_tokens: null, output_tokens: null, cost_usd: null, latency_ms: 30000, attempts: 3, error: "HTTP 429: rate limited", last_message: "user: again" },
      { index: 2, time: null, model: null, input_tokens: null, output_tokens: null, cost_usd: null, latency_ms: null, attempts: null, error: "this line is not a call record", last_message: null },
    ]);
    expect(JSON.parse((await get(server.port, `${base}?from=1&limit=1`)).body).calls.map((c: { index: number }) => c.index)).toEqual([1]);
    const one = JSON.parse((await get(server.port, `${base}/0`)).body);
    expect(one.entry.response.text).toBe("Use gradient boosting.");
    const none = await get(server.port, `${base}/9`);
    expect([none.status, JSON.parse(none.body).error]).toEqual([404, "the call log has 3 calls; there is no call 9"]);
    expect(JSON.parse((await get(server.port, `${base}/2`)).body).error).toBe("line 3 of logs/llm.jsonl is not a call record");
    expect((await get(server.port, `${base}/x`)).status).toBe(400);
    expect(JSON.parse((await get(server.port, `/api/groups/${id}/runs/titanic_1/llm`)).body).error).toBe("logs/llm.jsonl: missing");
  });

  it("refuses other hosts, writes, unknown runs and paths outside the API", async () => {
    const id = path.basename(group);
    expect((await get(server.port, "/api/groups", "evil.example:80")).status).toBe(403);
    expect((await get(server.port, "/api/groups", undefined, "POST")).status).toBe(405);
    const unknown = await get(server.port, `/api/groups/${id}/runs/..%2F..%2Fetc`);
    expect([unknown.status, JSON.parse(unknown.body).error]).toEqual([404, `run group "${id}" has no run "../../etc"`]);
    expect((await get(server.port, `/api/groups/${id}/runs/titanic_0/logs/..%2Frun.json`)).status).toBe(404);
    const search = await get(server.port, "/api/search?q=&in=code");
    expect([search.status, JSON.parse(search.body).error]).toEqual([400, "the search text is empty: give 1 to 200 characters (only a search of LLM calls for retried ones may leave it empty)"]);
    expect(JSON.parse((await get(server.port, "/api/search?q=x&in=files")).body).error).toBe('cannot search in "files": choose code, llm or logs');
    const code = await get(server.port, `/api/groups/${id}/runs/titanic_0/code/..%2F..%2Fetc/passwd`);
    expect([code.status, JSON.parse(code.body).error]).toEqual([404, 'not a code version ref: "../../etc/passwd"']);
    const diff = await get(server.port, `/api/diff?ag=${id}&ar=titanic_0`);
    expect([diff.status, JSON.parse(diff.body).error]).toEqual([404, 'run "titanic_0" has no code to compare']);
    expect(JSON.parse((await get(server.port, `/api/diff?ag=nope&ar=titanic_0`)).body).error).toBe('no run group "nope"');
    expect(JSON.parse((await get(server.port, "/api/report")).body).error).toBe("no data dir was given, so no report is made");
    const page = await get(server.port, "/");
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'; script-src 'self'");
  });

  it("needs the token when it has one", async () => {
    const guarded = await startViewServer({ roots: [group], host: "127.0.0.1", port: 0, token: "0123456789abcdef0123" });
    try {
      expect(guarded.url).toBe(`http://127.0.0.1:${guarded.port}/?token=0123456789abcdef0123`);
      expect((await get(guarded.port, "/api/groups")).status).toBe(401);
      expect((await get(guarded.port, "/api/groups?token=wrong")).status).toBe(401);
      expect((await get(guarded.port, "/api/groups?token=0123456789abcdef0123")).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe("mlebench view", () => {
  it("serves the groups it is given until interrupted, and refuses bad flags", async () => {
    const { url, child } = await startViewCli([process.execPath, CLI, "view", runs, "--port", "0"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const port = Number(new URL(url).port);
    expect(JSON.parse((await get(port, "/api/groups")).body)).toHaveLength(1);
    const exited = new Promise((r) => child.on("exit", (code) => r(code)));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    const bad = spawn(process.execPath, [CLI, "view", path.join(runs, "nope")], { cwd: REPO });
    let err = "";
    bad.stderr.on("data", (d) => (err += d));
    expect(await new Promise((r) => bad.on("exit", r))).toBe(2);
    expect(err).toContain(`${path.join(runs, "nope")} does not exist (expected a run group dir or a runs dir)`);
    const noGroups = tempDir("view-empty-");
    const empty = spawn(process.execPath, [CLI, "view", noGroups, "--port", "70000"], { cwd: REPO });
    let err2 = "";
    empty.stderr.on("data", (d) => (err2 += d));
    expect(await new Promise((r) => empty.on("exit", r))).toBe(2);
    expect(err2).toContain('--port: expected a port number 0-65535, got "70000"');
  });

  it.skipIf(userUnavailable() !== null)(`serves as ${TEST_USER.name}`, async () => {
    const home = tempDir("view-user-");
    fs.chownSync(home, TEST_USER.uid, TEST_USER.gid);
    const mine = path.join(home, "runs");
    fs.cpSync(runs, mine, { recursive: true, verbatimSymlinks: true });
    spawnSync("chown", ["-R", "-h", `${TEST_USER.uid}:${TEST_USER.gid}`, mine]);
    fs.chmodSync(home, 0o755);
    const { url, child } = await startViewCli(asUser([process.execPath, CLI, "view", mine]), { ...process.env, HOME: home });
    try {
      const port = Number(new URL(url).port);
      expect(JSON.parse((await get(port, "/api/groups")).body)[0].totals).toEqual({ runs: 2, completed: 2, graded: 2, medals: 0 });
    } finally {
      child.kill("SIGTERM");
    }
  });
});

const CHROMIUM = "/usr/bin/chromium";

describe.skipIf(!fs.existsSync(CHROMIUM))("the viewer in headless Chromium", () => {
  it("navigates group → run, shows an agent's markup and escapes as text, and asks nothing of other origins", async () => {
    const server = await startViewServer({ roots: [runs], host: "127.0.0.1", port: 0 });
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      fs.mkdirSync(path.join(REPO, "test-artifacts"), { recursive: true });
      await page.goto(server.url);
      const id = path.basename(group);
      await page.getByRole("link", { name: id }).click();
      await expect.poll(() => page.locator("table tbody tr").count()).toBe(2);
      await page.getByRole("link", { name: "titanic_0" }).click();
      const pre = page.locator("#log-agent\\.log");
      await expect.poll(async () => ((await pre.textContent()) ?? "").length).toBe(1 << 20);
      // Markup as text, and the escape character as its picture.
      expect((await pre.textContent())!.startsWith(HOSTILE.replaceAll("\x1b", "\u241b"))).toBe(true);
      expect(await page.evaluate("globalThis.pwned")).toBeUndefined();
      expect(await page.locator("#log-agent\\.log script, #log-agent\\.log img").count()).toBe(0);
      await page.getByRole("button", { name: "more" }).click();
      await expect.poll(async () => ((await pre.textContent()) ?? "").endsWith("\nthe end\n")).toBe(true);
      expect(await page.locator("#disqualified").textContent()).toBe("disqualified: plagiarism");
      expect(await page.locator("#integrity tbody td").allTextContents()).toEqual(["plagiarism", "yes", "92% of lines match a public notebook"]);
      await page.screenshot({ path: path.join(REPO, "test-artifacts", "view-run.png") });
      // The calls are listed on the run's page; one opens whole, its prompt as text.
      await expect.poll(() => page.locator("h2", { hasText: "LLM calls (3)" }).isVisible()).toBe(true);
      await page.getByRole("link", { name: "0", exact: true }).click();
      await expect.poll(() => page.locator("#completion").textContent()).toBe("Use gradient boosting.");
      expect(await page.locator("pre.message").allTextContents()).toEqual(["You are a Kaggle grandmaster.", "Plan for titanic <b>now</b>"]);
      expect(await page.locator("pre.message b").count()).toBe(0);
      await page.screenshot({ path: path.join(REPO, "test-artifacts", "view-llm-call.png") });
      const origin = new URL(server.url).origin;
      expect(requests.filter((u) => !u.startsWith(origin))).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  }, 60_000);
});
