// `mlebench doctor` through the built CLI (run `npm run build` first). The machine running the tests
// has bubblewrap and /usr/bin/python3 with numpy, pandas, scikit-learn and scipy; xgboost and torch
// may be absent, so those expectations follow what python itself says.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Check } from "../../src/doctor/checks.js";
import { checkNode, findOnPath } from "../../src/doctor/checks.js";
import { checksOk, formatChecks } from "../../src/cli/doctor.js";
import { mlebench } from "../helpers/cli.js";

interface Report {
  checks: Check[];
  ok: boolean;
}

function doctorJson(env: Record<string, string> = {}): { status: number | null; report: Report } {
  const r = mlebench(["doctor", "--json"], env);
  expect(r.stderr).toBe("");
  return { status: r.status, report: JSON.parse(r.stdout) as Report };
}

function byName(report: Report, name: string): Check {
  const c = report.checks.find((x) => x.name === name);
  if (!c) throw new Error(`no check named ${name}: ${report.checks.map((x) => x.name).join(", ")}`);
  return c;
}

const hasModule = (m: string) => spawnSync("/usr/bin/python3", ["-c", `import ${m}`]).status === 0;

const tempDirs: string[] = [];
afterAll(() => {
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

describe("mlebench doctor", () => {
  it("finds node, bubblewrap and the agents' Python on this machine", () => {
    const { status, report } = doctorJson();
    for (const name of ["node", "bubblewrap", "python3", "python3: numpy", "python3: pandas", "python3: sklearn", "python3: scipy"]) {
      expect(byName(report, name), name).toMatchObject({ status: "ok", required: true, fix: null });
    }
    expect(byName(report, "python3: numpy").detail).toMatch(/^\d+\.\d+/);

    const xgboost = byName(report, "python3: xgboost");
    expect(xgboost.required).toBe(true);
    if (hasModule("xgboost")) expect(xgboost.status).toBe("ok");
    else {
      expect(xgboost.status).toBe("missing");
      expect(xgboost.fix).toContain("scripts/setup-agent-env.sh");
    }
    const torch = byName(report, "python3: torch");
    expect(torch.required).toBe(false);
    expect(torch.status).toBe(hasModule("torch") ? "ok" : "warning");

    // Optional checks never decide the exit status, whatever this machine has.
    for (const name of ["cgroups", "curl", "envsubst", "docker", "gpus"]) {
      const c = byName(report, name);
      expect(c.required, name).toBe(false);
      expect(["ok", "warning"]).toContain(c.status);
    }
    const ok = report.checks.every((c) => !c.required || c.status === "ok");
    expect(report.ok).toBe(ok);
    expect(status).toBe(ok ? 0 : 1);
  });

  it("reports the Python checks missing, with the setup script as fix, when python3 does not work", () => {
    const dir = tempDir("mlebench-doctor-py-");
    const python = path.join(dir, "python3");
    fs.writeFileSync(python, "#!/bin/sh\necho 'python3: broken on purpose' >&2\nexit 1\n", { mode: 0o755 });
    const { status, report } = doctorJson({ MLEBENCH_AGENT_PYTHON: python });
    expect(status).toBe(1);
    expect(report.ok).toBe(false);
    const interpreter = byName(report, "python3");
    expect(interpreter.status).toBe("missing");
    expect(interpreter.detail).toContain("python3: broken on purpose");
    for (const m of ["numpy", "pandas", "sklearn", "scipy", "xgboost"]) {
      const c = byName(report, `python3: ${m}`);
      expect(c.status, m).toBe("missing");
      expect(c.fix, m).toContain("setup-agent-env.sh");
    }

    const table = mlebench(["doctor"], { MLEBENCH_AGENT_PYTHON: python });
    expect(table.status).toBe(1);
    expect(table.stdout).toMatch(/^python3\s+missing\s+required\s+.*broken on purpose$/m);
    expect(table.stdout).toMatch(/^\s+fix: sudo bash scripts\/setup-agent-env\.sh$/m);
    expect(table.stdout).toMatch(/required checks? failed/);
  });

  it("reports bubblewrap missing when bwrap is not on PATH", () => {
    const emptyPath = tempDir("mlebench-doctor-path-");
    const { status, report } = doctorJson({ PATH: emptyPath });
    expect(status).toBe(1);
    expect(byName(report, "bubblewrap")).toMatchObject({
      status: "missing",
      required: true,
      detail: "bwrap not found on PATH",
      fix: "sudo bash scripts/setup-agent-env.sh",
    });
    // Nothing else on PATH either: curl and docker are optional, so they only warn.
    expect(byName(report, "curl").status).toBe("warning");
    expect(byName(report, "envsubst")).toMatchObject({
      status: "warning",
      required: false,
      detail: "not found on PATH; upstream's agents (aide) cannot fill in their instructions",
      fix: "sudo bash scripts/setup-agent-env.sh",
    });
    expect(byName(report, "docker").status).toBe("warning");
    expect(byName(report, "node").status).toBe("ok");
  });

  it("explains its flag in --help", () => {
    const r = mlebench(["doctor", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--json\s+print \{checks/);
    expect(r.stdout).toContain("Exits 0 when every required check passes");
  });
});

describe("doctor helpers", () => {
  it("needs Node 20.10 or newer", () => {
    expect(checkNode("20.10.0").status).toBe("ok");
    expect(checkNode("22.1.0").status).toBe("ok");
    expect(checkNode("20.9.0")).toMatchObject({ status: "missing", required: true });
    expect(checkNode("18.19.1").detail).toContain("need >= 20.10");
  });

  it("looks commands up on the given PATH only", () => {
    const dir = tempDir("mlebench-doctor-which-");
    fs.writeFileSync(path.join(dir, "tool"), "#!/bin/sh\n", { mode: 0o755 });
    fs.writeFileSync(path.join(dir, "plain"), "", { mode: 0o644 });
    expect(findOnPath("tool", { PATH: `/nonexistent${path.delimiter}${dir}` })).toBe(path.join(dir, "tool"));
    expect(findOnPath("plain", { PATH: dir })).toBeNull();
    expect(findOnPath("tool", { PATH: "" })).toBeNull();
  });

  it("prints fixes under problems only and passes when optional checks warn", () => {
    const checks: Check[] = [
      { name: "a", status: "ok", required: true, detail: "fine", fix: "never shown" },
      { name: "longer-name", status: "warning", required: false, detail: "meh", fix: "do x" },
    ];
    expect(formatChecks(checks)).toBe(
      [
        "check        status   needed    detail",
        "a            ok       required  fine",
        "longer-name  warning  optional  meh",
        "             fix: do x",
        "",
      ].join("\n"),
    );
    expect(checksOk(checks)).toBe(true);
    expect(checksOk([{ ...checks[0], status: "missing" }])).toBe(false);
  });
});
