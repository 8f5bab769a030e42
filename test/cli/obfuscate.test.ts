// `mlebench run --obfuscate` (the paper's contamination ablation) through the real CLI in the default
// sandbox: the agent reads the obfuscated description at the usual path and the obfuscated
// instructions; upstream's `OBFUSCATE: "true"` asks for the same; competitions without an
// obfuscated description and the local sandbox are refused.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPETITIONS, getCompetition } from "../../src/competitions/registry.js";
import { UserError } from "../../src/core/errors.js";
import { obfuscatedDescriptionPath, requireObfuscatedDescription } from "../../src/runner/obfuscate.js";
import { instructionsText } from "../../src/runner/instructions.js";
import { formatDuration } from "../../src/sandbox/limits.js";
import { CONTAINER_PATHS } from "../../src/sandbox/types.js";
import { mlebench, mlebenchAsync } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { openaiText, startFakeLLM, type FakeLLM } from "../helpers/fake-llm-server.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";

let dataDir = "";
let llm: FakeLLM;
beforeAll(async () => {
  dataDir = await titanicDataDir();
  llm = await startFakeLLM();
});
afterAll(() => llm.close());

const OBFUSCATED = fs.readFileSync(obfuscatedDescriptionPath(getCompetition("titanic"), ""), "utf8");
const SHOW = [
  "cp /home/data/sample_submission.csv /home/submission/submission.csv",
  "echo '--- description'; cat /home/data/description.md",
  "echo '--- instructions'; cat /home/instructions.txt",
  "echo '--- obfuscated instructions'; cat /home/instructions_obfuscated.txt",
  'echo "--- OBFUSCATE=${OBFUSCATE:-unset}"',
].join("\n");

/** The agent's log cut at the markers SHOW prints. */
function sections(log: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of log.split(/^--- /m).slice(1)) {
    const nl = part.indexOf("\n");
    out[nl < 0 ? part : part.slice(0, nl)] = nl < 0 ? "" : part.slice(nl + 1);
  }
  return out;
}

describe("mlebench run --obfuscate (bwrap)", () => {
  it("lays the obfuscated description over description.md and gives the obfuscated instructions", () => {
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", SHOW, "-c", "titanic", "--obfuscate", "--time-limit", "10m"]);
    expect(r.status, r.stderr).toBe(0);
    const s = sections(agentLog(r.runDirs[0]));
    expect(s.description).toBe(OBFUSCATED);
    expect(s.instructions).toBe(instructionsText(CONTAINER_PATHS, formatDuration(600_000), true));
    expect(s.instructions).not.toMatch(/Kaggle|competition/i);
    expect(s["obfuscated instructions"]).toBe(s.instructions);
    expect(r.records[0].obfuscated).toBe(true);
    const meta = JSON.parse(fs.readFileSync(path.join(r.groupDir, "metadata.json"), "utf8"));
    expect(meta.options.obfuscate).toBe(true);
    // The data dir itself is untouched.
    expect(fs.readFileSync(path.join(dataDir, "titanic", "prepared", "public", "description.md"), "utf8")).toContain("Titanic");
  });

  it("without it: the competition's own description, and the obfuscated instructions beside the usual ones", () => {
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", SHOW, "-c", "titanic", "--time-limit", "10m"]);
    expect(r.status, r.stderr).toBe(0);
    const s = sections(agentLog(r.runDirs[0]));
    expect(s.description).toBe(fs.readFileSync(path.join(dataDir, "titanic", "prepared", "public", "description.md"), "utf8"));
    expect(s.instructions).toBe(instructionsText(CONTAINER_PATHS, formatDuration(600_000)));
    expect(s.instructions).toContain("Kaggle competitions");
    expect(s["obfuscated instructions"]).toBe(instructionsText(CONTAINER_PATHS, formatDuration(600_000), true));
    expect(r.records[0].obfuscated).toBeUndefined();
  });

  it("an upstream agent's OBFUSCATE: \"true\" gets the obfuscated files, and the variable is the harness's", () => {
    const agents = path.join(tempDir(), "agents");
    fs.mkdirSync(path.join(agents, "obf"), { recursive: true });
    fs.writeFileSync(path.join(agents, "obf", "start.sh"), `${SHOW}\n`);
    fs.writeFileSync(path.join(agents, "obf", "config.yaml"), 'obf:\n  start: obf/start.sh\n  env_vars:\n    OBFUSCATE: "true"\n    TIME_LIMIT_SECS: 600\n');
    const r = runCli(dataDir, ["--agent", "obf", "--agent-config", agents, "-c", "titanic"]);
    expect(r.status, r.stderr).toBe(0);
    const s = sections(agentLog(r.runDirs[0]));
    expect(s.description).toBe(OBFUSCATED);
    expect(s.instructions).not.toMatch(/Kaggle/);
    expect(s["OBFUSCATE=unset"]).toBe("");
    expect(r.records[0].obfuscated).toBe(true);
  });

  it("the research agent's file actions read the obfuscated description too", async () => {
    llm.reset();
    const answer = (action: string, input: unknown) =>
      `Reflection: r\nResearch Plan and Status: p\nFact Check: f\nThought: t\nAction: ${action}\nAction Input: ${JSON.stringify(input)}\n`;
    llm.script(
      openaiText(answer("Read File", { file_name: "data/description.md" })),
      openaiText(answer("Final Answer", { final_answer: "read it" })),
    );
    const runsDir = tempDir("obf-mlab-runs-");
    const r = await mlebenchAsync(
      ["run", "--agent", "mlab", "-c", "titanic", "--obfuscate", "--data-dir", dataDir, "--runs-dir", runsDir, "--json", "--mlab-steps", "3", "--time-limit", "5m"],
      { MLEBENCH_LLM_MODEL: `compat/fake@${llm.openaiBaseUrl}` },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { dir: string; runs: { run_id: string }[] };
    const trace = JSON.parse(fs.readFileSync(path.join(out.dir, out.runs[0]!.run_id, "logs", "mlab", "trace", "trace.json"), "utf8"));
    expect(trace.steps[0].observation).toBe(OBFUSCATED);
    // The research problem it was given is the obfuscated instructions.
    expect(JSON.stringify(llm.requests[0]!.body)).not.toContain("Kaggle");
  }, 120_000);

  it("refuses the local sandbox, and says which competition has no obfuscated description", () => {
    const local = mlebench(["run", "--agent", "dummy", "-c", "titanic", "--obfuscate", "--sandbox", "local", "--data-dir", dataDir, "--runs-dir", tempDir()]);
    expect(local.status).toBe(2);
    expect(local.stderr).toContain("--obfuscate needs a sandbox that can lay the obfuscated description over /home/data/description.md (bwrap or docker), not --sandbox local");
    const upstream = getCompetition("spaceship-titanic");
    const empty = tempDir();
    const file = path.join(empty, "spaceship-titanic", "upstream", "783b15af77404fbaffe7255b0c4a934b46153389", "description_obfuscated.md");
    expect(() => requireObfuscatedDescription(upstream, empty)).toThrow(
      new UserError(`--obfuscate: competition spaceship-titanic has no obfuscated description (${file}; it comes with upstream's metadata; fetch it with: mlebench prepare -c spaceship-titanic)`),
    );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "# Task\n");
    expect(requireObfuscatedDescription(upstream, empty)).toBe(file);
  });
});

describe("the offline competitions' obfuscated descriptions", () => {
  const offline = [...COMPETITIONS.values()].filter((c) => c.offline);
  it.each(offline.map((c) => [c.id, c] as const))("%s: the four sections, its files and id column, no name of its source", (id, c) => {
    const text = fs.readFileSync(obfuscatedDescriptionPath(c, ""), "utf8");
    expect(text.match(/^# .*$/gm)).toEqual(["# Task", "# Metric", "# Submission Format", "# Dataset"]);
    for (const f of [c.offline!.layout.train, c.offline!.layout.test, c.sampleSubmission, c.offline!.layout.id]) expect(text, f).toContain(f);
    for (const word of [...id.split("-"), "kaggle", "mnist", "http"]) {
      if (["party", "ratings", "weather", "spam", "churn", "caravan", "ridership"].includes(word)) continue; // plain words (spam is a label; churn, caravan and ridership are columns), not names
      expect(text.toLowerCase(), word).not.toContain(word);
    }
  });
  it("titanic's names every public file and the sample submission's header", () => {
    const pub = path.join(dataDir, "titanic", "prepared", "public");
    for (const f of fs.readdirSync(pub).filter((f) => f !== "description.md")) expect(OBFUSCATED, f).toContain(f);
    expect(OBFUSCATED).toContain(fs.readFileSync(path.join(pub, "sample_submission.csv"), "utf8").split("\n")[0]!);
  });
});
