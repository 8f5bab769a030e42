import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadAgentConfigs, loadSecretsFile, resolveEnv, resolveKwargs } from "../../src/agents/config.js";
import { upstreamCommand } from "../../src/agents/upstream-config.js";
import { resolveAgent } from "../../src/agents/registry.js";
import { tempDir } from "../helpers/data-dir.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";
import { upstreamAgentsDir } from "../helpers/upstream-agent.js";

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

  it("runs its command with a writable copy of its code at /home/agent and secrets in its env only", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "my-agent"));
    fs.writeFileSync(
      path.join(dir, "my-agent", "start.sh"),
      'echo "steps=$STEPS key=$API_KEY"\ncp /home/data/sample_submission.csv /home/submission/submission.csv\n' +
        '(echo x > /home/agent/new) 2>/dev/null && echo "agent dir is writable"\n',
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
    expect(agentLog(r.runDirs[0])).toBe("steps=3 key=sk-from-file\nagent dir is writable\n");
    // The copy is the run's (kept in its agent/ folder); the agent's own folder is untouched.
    expect(fs.readFileSync(path.join(r.runDirs[0], "agent", "new"), "utf8")).toBe("x\n");
    expect(fs.existsSync(path.join(dir, "my-agent", "new"))).toBe(false);
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

describe("agents in upstream MLE-bench's format", () => {
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await titanicDataDir();
  });

  it("reads an agents folder and one config.yaml, with start relative to the agents folder", () => {
    const agents = upstreamAgentsDir("copier:\n  start: copier/start.sh\n  dockerfile: copier/Dockerfile\n");
    for (const source of [agents, path.join(agents, "copier", "config.yaml")]) {
      const c = loadAgentConfigs(source).get("copier")!;
      expect(c.upstream?.startFile).toBe(path.join(agents, "copier", "start.sh"));
      expect(c.dir).toBe(path.join(agents, "copier"));
    }
    const agent = resolveAgent({ id: "copier", configFile: agents });
    expect(agent.agentDir).toBe(path.join(agents, "copier"));
  });

  it("passes kwargs as upstream does (argparse: --key value, omegaconf: key=value), secrets filled in", () => {
    const argparse = upstreamAgentsDir("copier:\n  start: copier/start.sh\n  kwargs_type: argparse\n  kwargs:\n    steps: 5\n    model: ${{ secrets.MODEL_NAME }}\n");
    const a = loadAgentConfigs(argparse).get("copier")!.upstream!;
    expect(() => resolveAgent({ id: "copier", configFile: argparse })).toThrow('agent "copier": kwarg model needs secret MODEL_NAME, which is not set');
    expect(upstreamCommand(a, resolveKwargs(a.kwargs, { MODEL_NAME: "m'1" }, "copier"), "/home/agent")).toBe("bash /home/agent/start.sh --steps 5 --model 'm'\\''1'");
    const omega = upstreamAgentsDir("copier:\n  start: copier/start.sh\n  kwargs_type: omegaconf\n  kwargs:\n    agent.steps: 5\n    note: two words\n");
    const o = loadAgentConfigs(omega).get("copier")!.upstream!;
    expect(upstreamCommand(o, resolveKwargs(o.kwargs, {}, "copier"), "/home/agent")).toBe("bash /home/agent/start.sh agent.steps=5 'note=two words'");
  });

  it("refuses what it cannot honour, naming the file and the agent", () => {
    // A privileged entry is refused when picked, not when its folder is read (upstream's has one).
    const privileged = upstreamAgentsDir("vars:\n  steps: &steps 3\ncopier:\n  start: copier/start.sh\n  privileged: true\n");
    expect(loadAgentConfigs(privileged).has("copier")).toBe(true);
    expect(() => resolveAgent({ id: "copier", configFile: privileged })).toThrow(/agent "copier" asks to run privileged/);
    const noType = upstreamAgentsDir("copier:\n  start: copier/start.sh\n  kwargs:\n    a: 1\n");
    expect(() => loadAgentConfigs(noType)).toThrow(/has kwargs but no kwargs_type/);
    const missing = upstreamAgentsDir("copier:\n  start: copier/nope.sh\n");
    expect(() => loadAgentConfigs(missing)).toThrow(/start script copier\/nope\.sh not found/);
    expect(() => loadAgentConfigs(tempDir())).toThrow(/a folder without any <id>\/config\.yaml/);
  });

  it("runs unchanged under the default sandbox: conda and python shims, the four folders, a writable agent folder, validation, grading", () => {
    const agents = upstreamAgentsDir("copier:\n  start: copier/start.sh\n  kwargs_type: argparse\n  kwargs:\n    time-limit: 60\n    note: two words\n");
    const r = runCli(dataDir, ["--agent", "copier", "--agent-config", agents, "-c", "titanic", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    const log = agentLog(r.runDirs[0]);
    expect(log).toContain("args: --time-limit 60 --note two words\n");
    expect(log).toContain("dirs: /home/agent /home/code /home/logs /home/submission titanic\n");
    expect(log).toContain("copied\n");
    expect(log).toContain('{"result":"Submission is valid."}');
    expect(log).not.toMatch(/command not found/);
    for (const f of ["agent/agent_was_here.txt", "agent/start.sh", "code/code.py", "logs/run.log"]) expect(fs.existsSync(path.join(r.runDirs[0], f)), f).toBe(true);
    expect(fs.existsSync(path.join(agents, "copier", "agent_was_here.txt"))).toBe(false);
    expect(r.records[0].grading?.valid_submission).toBe(true);
  });
});
