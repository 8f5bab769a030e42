import { spawnSync } from "node:child_process";
import path from "node:path";
import { Command, Help } from "commander";
import { describe, expect, it } from "vitest";
import { chosenCommand, COMMANDS } from "../../src/cli/commands.js";
import { CLI, REPO } from "../helpers/cli.js";

const TRACE = path.join(REPO, "test", "fixtures", "cli", "trace-imports.mjs");

/** The modules (paths under the repository, or package names) a CLI invocation loads, and its result. */
function traced(args: string[]): { status: number | null; stdout: string; modules: string[] } {
  const r = spawnSync(process.execPath, ["--import", TRACE, CLI, ...args], { cwd: REPO, encoding: "utf8" });
  const modules = r.stderr
    .split("\n")
    .filter((l) => l.startsWith("module file://"))
    .map((l) => decodeURIComponent(l.slice("module file://".length)))
    .map((p) => path.relative(REPO, p));
  return { status: r.status, stdout: r.stdout, modules: [...new Set(modules)] };
}

const under = (modules: string[], prefix: string) => modules.filter((m) => m.startsWith(prefix));

describe("command table", () => {
  it("reads as each command's own definition does in the help", async () => {
    const help = new Help();
    for (const entry of COMMANDS) {
      const program = new Command("mlebench");
      (await entry.load()).register(program);
      const cmd = program.commands.find((c) => c.name() === entry.name)!;
      expect(cmd, entry.name).toBeDefined();
      expect(program.commands).toHaveLength(1);
      expect(help.subcommandTerm(cmd), entry.name).toBe(entry.term);
      expect(cmd.summary(), entry.name).toBe(entry.summary);
    }
  });

  it("picks the command from the first word that is not a flag, or the word after help", () => {
    expect(chosenCommand(["list", "--json"])?.name).toBe("list");
    expect(chosenCommand(["--help", "run"])?.name).toBe("run");
    expect(chosenCommand(["help", "grade-sample"])?.name).toBe("grade-sample");
    expect(chosenCommand(["--version"])).toBeUndefined();
    expect(chosenCommand(["lst"])).toBeUndefined();
  });
});

describe("start-up loads only what the command needs", () => {
  it("--version and --help load no command module, competition or dependency but commander", () => {
    for (const args of [["--version"], ["--help"]]) {
      const r = traced(args);
      expect(r.status, args[0]).toBe(0);
      expect(under(r.modules, "dist/").sort(), args[0]).toEqual(["dist/cli/command-help.js", "dist/cli/commands.js", "dist/cli/common.js", "dist/cli/main.js", "dist/core/errors.js"]);
      expect(under(r.modules, "node_modules/").every((m) => m.startsWith("node_modules/commander/")), args[0]).toBe(true);
    }
    const help = traced(["--help"]);
    // Every command is listed with its arguments although none was loaded.
    for (const c of COMMANDS) expect(help.stdout).toContain(`  ${c.term} `);
  });

  it("list reads competition metadata without importing a grader or a preparer", () => {
    const r = traced(["list", "--split", "offline", "--json", "--data-dir", path.join(REPO, "no-such-data-dir")]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThanOrEqual(25);
    const loaded = under(r.modules, "dist/competitions/");
    expect(loaded.filter((m) => m.endsWith("/index.js")).length).toBeGreaterThanOrEqual(107);
    expect(loaded.filter((m) => /\/(grade|prepare)\.js$/.test(m))).toEqual([]);
    expect(under(r.modules, "dist/").filter((m) => /^dist\/(runner|queue|mlagentbench|llm|agents|sandbox|grading|io|metrics)\//.test(m))).toEqual([]);
  });

  it("grade-sample imports the one grader it uses", () => {
    const r = traced(["grade-sample", path.join(REPO, "no-such.csv"), "titanic", "--json", "--data-dir", path.join(REPO, "no-such-data-dir")]);
    const graders = under(r.modules, "dist/competitions/").filter((m) => m.endsWith("/grade.js"));
    expect(graders).toEqual(["dist/competitions/titanic/grade.js"]);
    // Nor any other competition's definition, nor zod (grading writes reports, it does not parse them).
    expect(under(r.modules, "dist/competitions/").filter((m) => m.endsWith("/index.js"))).toEqual(["dist/competitions/titanic/index.js"]);
    expect(under(r.modules, "node_modules/").filter((m) => !m.startsWith("node_modules/commander/"))).toEqual([]);
  });

  it("run loads neither the queue clients nor the research tasks unless asked", () => {
    const r = traced(["run", "--help"]);
    expect(r.status).toBe(0);
    expect(under(r.modules, "node_modules/").filter((m) => /node_modules\/(bullmq|ioredis|@aws-sdk)\//.test(m))).toEqual([]);
    expect(under(r.modules, "dist/queue/").filter((m) => m !== "dist/queue/s3-url.js")).toEqual([]);
    expect(under(r.modules, "dist/mlagentbench/tasks/")).toEqual([]);
  });

  it("tasks loads a research task only when one is named", () => {
    const r = traced(["tasks", "run", "--help"]);
    expect(r.status).toBe(0);
    expect(under(r.modules, "dist/mlagentbench/tasks/").filter((m) => m.split("/").length > 4)).toEqual([]);
  });
});
