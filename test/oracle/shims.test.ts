import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The oracle (scripts/golden/upstream/) runs upstream's Python with shims for libraries Debian
// ships older and stand-ins for modules it lacks; each is checked on its table of known values.
const REPO = decodeURIComponent(new URL("../../", import.meta.url).pathname);
const DIR = path.join(REPO, "scripts", "golden", "upstream");

describe("oracle shims and stand-ins", () => {
  it.each(["test_compat.py", "test_standins.py"])("%s passes under Debian's python3", (file) => {
    const run = spawnSync("/usr/bin/python3", ["-m", "unittest", "-v", path.join(DIR, file)], {
      cwd: REPO,
      encoding: "utf8",
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    expect(run.status, run.stderr).toBe(0);
    const ran = /Ran (\d+) tests?/.exec(run.stderr);
    expect(Number(ran?.[1])).toBeGreaterThanOrEqual(10);
    expect(run.stderr).not.toMatch(/\bFAIL\b|\bERROR\b/);
  });
});
