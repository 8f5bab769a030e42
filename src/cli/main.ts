#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { EXIT } from "./common.js";
import { register as registerDemo } from "./demo.js";
import { register as registerDoctor } from "./doctor.js";
import { register as registerGrade } from "./grade.js";
import { register as registerGradeSample } from "./grade-sample.js";
import { register as registerIntegrity } from "./integrity.js";
import { register as registerList } from "./list.js";
import { register as registerPrepare } from "./prepare.js";
import { register as registerPull } from "./pull.js";
import { register as registerReport } from "./report.js";
import { register as registerRun } from "./run.js";
import { register as registerStatus } from "./status.js";
import { register as registerTasks } from "./tasks.js";
import { register as registerWorker } from "./worker.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

// A reader that stops early (`mlebench list | head`) is not an error.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

const program = new Command("mlebench")
  .description("Benchmark machine-learning engineering agents on Kaggle-style competitions.")
  .version(pkg.version, "-V, --version", "print the version")
  .helpOption("-h, --help", "show help for a command")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

registerList(program);
registerPrepare(program);
registerGradeSample(program);
registerGrade(program);
registerRun(program);
registerWorker(program);
registerStatus(program);
registerPull(program);
registerTasks(program);
registerIntegrity(program);
registerReport(program);
registerDoctor(program);
registerDemo(program);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    // --help and --version end through here with code 0; bad flags and arguments are usage errors.
    process.exitCode = e.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    throw e;
  }
}
