import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadAgentConfigs, loadSecretsFile, resolveEnv } from "../../src/agents/config.js";
import { resolveAgent } from "../../src/agents/registry.js";
import { tempDir } from "../helpers/data-dir.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";

describe("agent config", () => {
  it("resolves ${{ secrets.NAME }} references and records which vars hold secrets", () => {
    const r = resolveEnv({ KEY: "${{ secrets.API }}", URL: "https://x/${{secrets.HOST}}/v1", STEPS: 500, FLAG: true }, { API: "k1", HOST: "h" }, "a");
    expect(r.env).toEqual({ KEY: "k1", URL: "https://x/h/v1", STEPS: "500", FLAG: "true" });
    expect(r.secretNames).toEqual(["KEY", "URL"]);
  });

  it("names the missing secret and how to set it", () => {
    expect(() => resolveEnv({ KEY: "${{ secrets.OPENAI_API_KEY }}" }, {}, "aide")).toThrow(
      'agent "aide": env var KEY needs secret OPENAI_API_KEY, which is not set; export OPENAI_API_KEY=... or put it in a --secrets-file',
    );
  });

  it("reads dotenv-style secrets files", () => {
    const f = path.join(tempDir(), "s.env");
    fs.writeFileSync(f, '# keys\nexport A=1\nB="two words"\n\nC=\'x=y\'\n');
    expect(loadSecretsFile(f)).toEqual({ A: "1", B: "two words", C: "x=y" });
    fs.writeFileSync(f, "A=1\nnot a pair\n");
    expect(() => loadSecretsFile(f)).toThrow(`--secrets-file: ${f}, line 2: expected KEY=VALUE`);
  });

  it("validates agents config files with the path of the problem", () => {
    const dir = tempDir();
    const f = path.join(dir, "agents.yaml");
    fs.writeFileSync(f, "mine:\n  cmd: run.sh\n  network:\n    allow: [api.openai.com]\n");
    const c = loadAgentConfigs(f).get("mine")!;
    expect(c).toMatchObject({ cmd: "run.sh", env_vars: {}, network: { allow: ["api.openai.com"] }, baseDir: dir });
    fs.writeFileSync(f, "mine:\n  command: run.sh\n");
    expect(() => loadAgentConfigs(f)).toThrow(/^--agent-config: .*agents\.yaml: at mine/);
    fs.writeFileSync(f, "mine: [\n");
    expect(() => loadAgentConfigs(f)).toThrow(/is not valid YAML/);
  });

  it("builds agents from the registry, rejecting flags that do not apply", () => {
    expect(resolveAgent({ id: "dummy" }).id).toBe("dummy");
    expect(() => resolveAgent({ id: "dummy", cmd: "x" })).toThrow(/--agent-cmd is only for --agent external/);
    const ext = resolveAgent({ id: "external", cmd: "true", env: ["A=1", "B=x=y"], allowHosts: ["api.x.com"] });
    expect(ext).toMatchObject({ id: "external", env: { A: "1", B: "x=y" }, secretNames: [], allowHosts: ["api.x.com"], files: {} });
    expect(() => resolveAgent({ id: "external", cmd: "true", env: ["A=${{ secrets.NOT_SET_ANYWHERE }}"] })).toThrow(/needs secret NOT_SET_ANYWHERE/);
    expect(() => resolveAgent({ id: "external", cmd: "true", env: ["novalue"] })).toThrow('--env: "novalue" is not KEY=VALUE');
  });
});

describe("an agent from --agent-config", () => {
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await titanicDataDir();
  });

  it("runs its command with its code mounted read-only at /home/agent and secrets in its env only", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "my-agent"));
    fs.writeFileSync(
      path.join(dir, "my-agent", "start.sh"),
      'echo "steps=$STEPS key=$API_KEY"\ncp /home/data/sample_submission.csv /home/submission/submission.csv\n' +
        '(echo x > /home/agent/new) 2>/dev/null || echo "agent dir is read-only"\n',
    );
    fs.writeFileSync(
      path.join(dir, "agents.yaml"),
      "my-agent:\n  cmd: bash /home/agent/start.sh\n  dir: my-agent\n  env_vars:\n    STEPS: 3\n    API_KEY: ${{ secrets.MY_KEY }}\n",
    );
    fs.writeFileSync(path.join(dir, "secrets.env"), "MY_KEY=sk-from-file\n");
    const r = runCli(dataDir, [
      "--agent", "my-agent", "--agent-config", path.join(dir, "agents.yaml"), "--secrets-file", path.join(dir, "secrets.env"), "-c", "titanic", "--grade",
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(agentLog(r.runDirs[0])).toBe("steps=3 key=sk-from-file\nagent dir is read-only\n");
    expect(r.records[0].secret_env).toEqual(["API_KEY"]);
    expect(fs.readFileSync(path.join(r.runDirs[0], "run.json"), "utf8")).not.toContain("sk-from-file");
    expect(r.records[0].grading?.valid_submission).toBe(true);
  });

  it("--sandbox local runs without isolation, warns loudly, and still validates and grades", () => {
    const cmd = 'cp "$MLEBENCH_DATA_DIR/sample_submission.csv" "$MLEBENCH_SUBMISSION_DIR/submission.csv" && bash "$MLEBENCH_VALIDATE_SCRIPT" "$MLEBENCH_SUBMISSION_DIR/submission.csv"';
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--sandbox", "local", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("WARNING: --sandbox local runs the agent as an ordinary process");
    expect(agentLog(r.runDirs[0]).trim()).toBe('{"result":"Submission is valid."}');
    expect(r.records[0].sandbox.backend).toBe("local");
    expect(r.records[0].sandbox.warnings[0]).toMatch(/^WARNING: --sandbox local/);
    expect(r.records[0].grading?.valid_submission).toBe(true);
  });
});
