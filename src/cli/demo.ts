import path from "node:path";
import { Option, type Command } from "commander";
import { UserError } from "../core/errors.js";
import { resolveDataDir } from "../core/paths.js";
import { competitionsInSplit, getCompetition } from "../competitions/registry.js";
import { formatDemoTable, runDemo, runSetup, unmetNeeds } from "../demo/demo.js";
import { limitsFromFlags, parsePositiveInt } from "../sandbox/limits.js";
import { defaultSandbox, getSandboxBackend, SANDBOX_BACKENDS } from "../sandbox/registry.js";
import { formatChecks } from "./doctor.js";
import { EXIT, action, dataDirOption } from "./common.js";
import { progressBar } from "../present/progress.js";
import { runProgressView } from "./run-progress.js";
import { summaryOf } from "./command-help.js";

interface DemoFlags {
  competition?: string[];
  seeds: string;
  workers: string;
  timeLimit: string;
  split: string;
  memory?: string;
  sandbox?: string;
  runsDir: string;
  dataDir?: string;
  setup: boolean;
  json?: boolean;
}

/** `mlebench demo`: the whole benchmark, offline, in minutes. */
export function register(program: Command): void {
  program
    .command("demo")
    .summary(summaryOf("demo"))
    .description(
      "Run the embedded offline benchmark end to end with no API key and no download: check the environment " +
        "(installing the Debian packages when run as root), prepare the offline competitions (by default the quick " +
        "offline-lite split; --split offline for all of them), run the dummy agent " +
        "(sample submission) and the baseline agent (a no-LLM AutoML script) on each in the sandbox, grade every run, " +
        "and print a table of scores and medals with the path of the full report.",
    )
    .option("-c, --competition <id...>", "only these competitions (default: those of --split)")
    .option("--split <name>", "the offline split to run: offline-lite (the quick ones), offline (all), offline-low, offline-medium, offline-high", "offline-lite")
    .option("--seeds <n>", "runs per competition and agent", "1")
    .option("--workers <n>", "runs at the same time", "1")
    .option("--time-limit <duration>", "wall-clock limit per run", "4m")
    .option("--memory <size>", "memory limit per run (default: unlimited)")
    .addOption(new Option("--sandbox <backend>", `isolation backend (default: ${defaultSandbox()})`).choices([...SANDBOX_BACKENDS.keys()]))
    .option("--runs-dir <dir>", "where the run groups and the demo report go", "runs")
    .addOption(dataDirOption())
    .option("--no-setup", "never run the Debian setup scripts, even as root; just report what is missing")
    .option("--json", "print the demo report as JSON instead of the table")
    .action(
      action(async (flags: DemoFlags) => {
        const competitions = flags.competition ? flags.competition.map(getCompetition) : competitionsInSplit(flags.split);
        const offline = competitions.filter((c) => !c.offline);
        if (offline.length > 0) throw new UserError(`demo runs offline competitions only; "${offline[0].id}" needs Kaggle data`);
        const seeds = parsePositiveInt(flags.seeds, "--seeds");
        const workers = parsePositiveInt(flags.workers, "--workers");
        const limits = limitsFromFlags({ timeLimit: flags.timeLimit, memory: flags.memory });
        const backendName = flags.sandbox ?? defaultSandbox();
        const backend = getSandboxBackend(backendName);
        const say = (line: string) => process.stderr.write(`${line}\n`);

        say("checking the environment");
        let unmet = await unmetNeeds(backendName, competitions);
        if (unmet.length > 0 && flags.setup && runSetup(say)) unmet = await unmetNeeds(backendName, competitions);
        if (unmet.length > 0) {
          process.stderr.write(formatChecks(unmet));
          say("the demo cannot run until these are fixed (as root it installs them itself)");
          return EXIT.failed;
        }
        const problem = await backend.unavailable();
        if (problem) throw new UserError(`--sandbox ${backendName}: ${problem}`);

        const dataDir = resolveDataDir(flags.dataDir);
        const bar = progressBar("Preparing", flags.json === true);
        const view = runProgressView(true);
        let report;
        try {
          report = await runDemo({
            competitions,
            dataDir,
            runsDir: path.resolve(flags.runsDir),
            backend,
            limits,
            seeds,
            workers,
            say,
            onEvent: (e) => view.onEvent(e),
            onPrepare: (done, total) => {
              bar.update(done, total);
              if (done === total) bar.stop();
            },
          });
        } finally {
          view.stop();
        }
        process.stdout.write(flags.json ? JSON.stringify(report, null, 2) + "\n" : formatDemoTable(report));
        const baseline = report.rows.filter((r) => r.agent === "baseline");
        return report.rows.every((r) => r.status === "completed") && baseline.every((r) => r.valid) ? EXIT.ok : EXIT.failed;
      }),
    );
}
