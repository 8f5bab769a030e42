import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCompetition } from "../../src/competitions/registry.js";
import { obfuscatedDescriptionPath } from "../../src/runner/obfuscate.js";
import { getSandboxBackend } from "../../src/sandbox/registry.js";
import { tempDir } from "../helpers/data-dir.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";
import { upstreamAgentsDir } from "../helpers/upstream-agent.js";
import { mlebench } from "../helpers/cli.js";
import { mlebenchAsUser, TEST_USER, userUnavailable } from "../helpers/user.js";

// The docker backend on a real engine with the image scripts/build-agent-image.sh builds offline
// (.ci/run starts dockerd and builds it); skipped, with the reason, where either is missing. The
// escape, limit and disk suites run under docker too (test/helpers/backends.ts).
const WHY = await getSandboxBackend("docker").unavailable();

const OWN_IMAGE = "mlebench-test-own-image:1";
const NODELESS_IMAGE = "mlebench-test-nodeless:1";

/** `docker build` of a Dockerfile given as text, with no build context. */
function buildImage(tag: string, dockerfile: string): void {
  const r = spawnSync("docker", ["build", "-q", "-t", tag, "-"], { input: dockerfile, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`docker build ${tag} failed: ${r.stderr}`);
}

let dataDir = "";
beforeAll(async () => {
  dataDir = await titanicDataDir();
});

describe.skipIf(WHY !== null)(`the docker backend on a real engine${WHY ? `: skipped, ${WHY}` : ""}`, () => {
  beforeAll(() => {
    // An agent's own image, built on the agents' image as upstream's agents build on theirs.
    buildImage(OWN_IMAGE, "FROM mlebench-agent\nUSER 0\nRUN mkdir -p /opt/own && echo from-own-image > /opt/own/marker\nUSER 1000\n");
    buildImage(NODELESS_IMAGE, "FROM mlebench-agent\nUSER 0\nRUN rm -f /usr/bin/node /usr/bin/nodejs\nUSER 1000\n");
  }, 300_000);
  afterAll(() => {
    spawnSync("docker", ["rmi", "--force", OWN_IMAGE, NODELESS_IMAGE]);
  });

  it("runs an agent in upstream's format unchanged: shims, the four folders, a writable agent folder, validation, grading", () => {
    const agents = upstreamAgentsDir("copier:\n  start: copier/start.sh\n  kwargs_type: omegaconf\n  kwargs:\n    agent.steps: 3\n");
    const r = runCli(dataDir, ["--agent", "copier", "--agent-config", agents, "-c", "titanic", "--sandbox", "docker", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records[0].sandbox.backend).toBe("docker");
    expect(r.records[0].sandbox.image).toBe("mlebench-agent");
    const log = agentLog(r.runDirs[0]);
    expect(log).toContain("args: agent.steps=3\n");
    expect(log).toContain("dirs: /home/agent /home/code /home/logs /home/submission titanic\n");
    expect(log).toContain('{"result":"Submission is valid."}');
    expect(log).not.toMatch(/command not found|Permission denied/);
    for (const f of ["agent/agent_was_here.txt", "code/code.py", "logs/run.log"]) expect(fs.existsSync(path.join(r.runDirs[0], f)), f).toBe(true);
    expect(r.records[0].grading?.valid_submission).toBe(true);
  }, 300_000);

  it("an agent runs in its own image (`image:` in its config, or --agent-image over it), with the run's mounts as in the default image", () => {
    const config = path.join(tempDir(), "agents.yaml");
    const cmd = "cat /opt/own/marker; cp /home/data/sample_submission.csv /home/submission/submission.csv; bash /home/validate_submission.sh /home/submission/submission.csv";
    fs.writeFileSync(config, `own:\n  cmd: ${JSON.stringify(cmd)}\n  image: ${OWN_IMAGE}\n`);
    const r = runCli(dataDir, ["--agent", "own", "--agent-config", config, "-c", "titanic", "--sandbox", "docker", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records[0].sandbox.image).toBe(OWN_IMAGE);
    const log = agentLog(r.runDirs[0]);
    expect(log).toContain("from-own-image\n");
    expect(log).toContain('{"result":"Submission is valid."}');
    expect(r.records[0].grading?.valid_submission).toBe(true);

    // The flag wins over the config: the default image has no marker.
    const over = runCli(dataDir, ["--agent", "own", "--agent-config", config, "--agent-image", "mlebench-agent", "-c", "titanic", "--sandbox", "docker"]);
    expect(over.status, over.stderr).toBe(0);
    expect(over.records[0].sandbox.image).toBe("mlebench-agent");
    expect(agentLog(over.runDirs[0])).toContain("/opt/own/marker: No such file or directory");
  }, 300_000);

  it("an image without node fails the run with what the image needs", () => {
    const r = runCli(dataDir, ["--agent", "dummy", "--agent-image", NODELESS_IMAGE, "-c", "titanic", "--sandbox", "docker"]);
    expect(r.status).toBe(1);
    expect(r.records[0].status).toBe("failed");
    expect(r.records[0].error).toMatch(
      new RegExp(`^the image ${NODELESS_IMAGE} cannot run the harness's init \\(OCI runtime exec failed: .*"node": executable file not found in \\$PATH.*\\): it needs Node\\.js 18 or newer as \`node\` on PATH`),
    );
    expect(spawnSync("docker", ["ps", "-a", "--filter", "label=mlebench.run", "--format", "{{.Names}}"], { encoding: "utf8" }).stdout).not.toContain(
      r.records[0].run_id.slice(-36),
    );
  }, 300_000);

  const hasNvidia = spawnSync("docker", ["info", "--format", "{{json .Runtimes}}"], { encoding: "utf8" }).stdout.includes("nvidia");
  it.skipIf(hasNvidia)("--gpus on an engine without the NVIDIA runtime fails the run and says what to install", () => {
    const r = runCli(dataDir, ["--agent", "dummy", "-c", "titanic", "--sandbox", "docker", "--gpus", "0"]);
    expect(r.status).toBe(1);
    expect(r.records[0].sandbox.gpus).toEqual([0]);
    expect(r.records[0].error).toMatch(/^docker run failed: .*could not select device driver .*gpu.*; --gpus under docker needs the NVIDIA Container Toolkit on this host \(nvidia-ctk runtime configure --runtime=docker, then restart dockerd\), or use --sandbox bwrap$/);
  }, 300_000);

  it("--obfuscate lays the obfuscated description over the usual path", () => {
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", "cat /home/data/description.md", "-c", "titanic", "--sandbox", "docker", "--obfuscate"]);
    expect(r.status, r.stderr).toBe(0);
    expect(agentLog(r.runDirs[0])).toBe(fs.readFileSync(obfuscatedDescriptionPath(getCompetition("titanic"), ""), "utf8"));
  }, 300_000);
});

/** Why the docker backend cannot be tried as the test user here, else null: it must be a login user in the docker group. */
function dockerUserUnavailable(): string | null {
  if (WHY !== null) return WHY;
  const why = userUnavailable();
  if (why !== null) return why;
  const groups = spawnSync("id", ["-nG", TEST_USER.name], { encoding: "utf8" }).stdout.split(/\s+/);
  return groups.includes("docker") ? null : `${TEST_USER.name} is not in the docker group (.ci/run puts its user there)`;
}
const USER_WHY = dockerUserUnavailable();

describe.skipIf(USER_WHY !== null)(`the docker backend for a user in the docker group${USER_WHY ? `: skipped, ${USER_WHY}` : ""}`, () => {
  it("runs, validates and grades with the user's own uid in the container", () => {
    const home = tempDir("mlebench-docker-user-");
    const data = path.join(home, "data");
    fs.cpSync(dataDir, data, { recursive: true });
    spawnSync("chown", ["-R", `${TEST_USER.uid}:${TEST_USER.gid}`, home]);
    fs.chmodSync(home, 0o755);
    const cmd = "id -u; cp /home/data/sample_submission.csv /home/submission/submission.csv; bash /home/validate_submission.sh /home/submission/submission.csv";
    const r = mlebenchAsUser(["run", "--sandbox", "docker", "--data-dir", data, "--runs-dir", path.join(home, "runs"), "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--grade", "--json"], home);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { dir: string; runs: { run_id: string }[] };
    const runDir = path.join(out.dir, out.runs[0]!.run_id);
    expect(agentLog(runDir)).toBe(`${TEST_USER.uid}\n{"result":"Submission is valid."}\n`);
    const record = JSON.parse(fs.readFileSync(path.join(runDir, "run.json"), "utf8"));
    expect(record.sandbox.backend).toBe("docker");
    expect(record.grading.valid_submission).toBe(true);
    expect(fs.statSync(path.join(runDir, "submission", "submission.csv")).uid).toBe(TEST_USER.uid);
    // The manifest names the image by its content id, and the Python inside it.
    const manifest = JSON.parse(fs.readFileSync(path.join(runDir, "manifest.json"), "utf8"));
    expect(manifest.software.sandbox).toMatchObject({ backend: "docker", image: record.sandbox.image });
    expect(manifest.software.sandbox.image_id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(manifest.software.sandbox.python).toMatch(/^3\.\d+\.\d+$/);
    expect(manifest.software.sandbox.python_packages.numpy).toMatch(/^\d+\.\d+/);
  }, 300_000);
});

describe("an agent's own image", () => {
  it("needs --sandbox docker", () => {
    const r = mlebench(["run", "--agent", "dummy", "--agent-image", OWN_IMAGE, "-c", "titanic", "--data-dir", dataDir, "--runs-dir", tempDir()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`agent dummy runs in its own image (${OWN_IMAGE}): that needs --sandbox docker (not bwrap)`);
  });
});
