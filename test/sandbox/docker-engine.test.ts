import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getSandboxBackend } from "../../src/sandbox/registry.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";
import { upstreamAgentsDir } from "../helpers/upstream-agent.js";

// The docker backend on a real engine with the image scripts/build-agent-image.sh builds offline
// (.ci/run starts dockerd and builds it); skipped, with the reason, where either is missing.
const WHY = await getSandboxBackend("docker").unavailable();

describe.skipIf(WHY !== null)(`the docker backend on a real engine${WHY ? `: skipped, ${WHY}` : ""}`, () => {
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await titanicDataDir();
  });

  it("runs an agent in upstream's format unchanged: shims, the four folders, a writable agent folder, validation, grading", () => {
    const agents = upstreamAgentsDir("copier:\n  start: copier/start.sh\n  kwargs_type: omegaconf\n  kwargs:\n    agent.steps: 3\n");
    const r = runCli(dataDir, ["--agent", "copier", "--agent-config", agents, "-c", "titanic", "--sandbox", "docker", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records[0].sandbox.backend).toBe("docker");
    const log = agentLog(r.runDirs[0]);
    expect(log).toContain("args: agent.steps=3\n");
    expect(log).toContain("dirs: /home/agent /home/code /home/logs /home/submission titanic\n");
    expect(log).toContain('{"result":"Submission is valid."}');
    expect(log).not.toMatch(/command not found|Permission denied/);
    for (const f of ["agent/agent_was_here.txt", "code/code.py", "logs/run.log"]) expect(fs.existsSync(path.join(r.runDirs[0], f)), f).toBe(true);
    expect(r.records[0].grading?.valid_submission).toBe(true);
  }, 300_000);
});
