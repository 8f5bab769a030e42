// An offline competition cut from an R package or from a folder a Debian package installs must not
// show that folder to the agent: through `mlebench run` on the real sandboxes, it lists as empty.
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { competitionsInSplit } from "../../src/competitions/registry.js";
import type { Competition } from "../../src/core/competition.js";
import { prepareCompetition } from "../../src/prepare/prepare.js";
import { hiddenSources } from "../../src/sources/packages.js";
import { REAL_BACKENDS, suiteTitle } from "../helpers/backends.js";
import { tempDir } from "../helpers/data-dir.js";
import { agentLog, runCli } from "../helpers/runs.js";

const offline = competitionsInSplit("offline");
const isFolder = (p: string) => fs.existsSync(p) && fs.statSync(p).isDirectory();
/** The first offline competition with an R source, and the first with a Debian folder source (where there is one). */
const cases: { kind: string; competition: Competition }[] = [
  { kind: "an R package's folder", pick: (c: Competition) => Object.values(c.offline!.sources).some((s) => s.kind === "r") },
  { kind: "a Debian package's folder", pick: (c: Competition) => Object.values(c.offline!.sources).some((s) => s.kind === "debian" && isFolder(s.path)) },
].flatMap(({ kind, pick }) => {
  const competition = offline.find(pick);
  return competition ? [{ kind, competition }] : [];
});

const dataDir = tempDir("mlebench-hidden-folders-");
beforeAll(async () => {
  for (const { competition } of cases) await prepareCompetition(competition, dataDir);
}, 300_000);

for (const backend of REAL_BACKENDS) describe.skipIf(backend.skip !== null || cases.length === 0)(suiteTitle("hidden source folders", backend), () => {
  it.each(cases)("$kind ($competition.id) lists as empty inside the sandbox", ({ competition }) => {
    const folders = hiddenSources(competition).filter(isFolder);
    expect(folders.length).toBeGreaterThan(0);
    for (const f of folders) expect(fs.readdirSync(f).length).toBeGreaterThan(0);
    const listing = folders.map((f) => `echo "ENTRIES $(ls -A '${f}' | wc -l) ${f}"; find '${f}' -type f 2>/dev/null | head -3 | sed 's/^/FILE /'`).join("; ");
    const cmd = `cp /home/data/${competition.sampleSubmission} /home/submission/submission.csv; ${listing}; echo done`;
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", cmd, "-c", competition.id]);
    expect(r.status, r.stderr).toBe(0);
    const log = agentLog(r.runDirs[0]);
    for (const f of folders) expect(log).toContain(`ENTRIES 0 ${f}`);
    expect(log).not.toContain("FILE ");
    expect(log).toContain("done");
    expect(r.records[0].exit_reason).toBe("finished");
  });
});
