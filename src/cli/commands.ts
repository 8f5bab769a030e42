import type { Command } from "commander";
import { COMMAND_HELP, type CommandHelp } from "./command-help.js";

/** What a command's module exports: the function that adds the command, its flags and its action. */
export interface CommandModule {
  register(program: Command): void;
}

/** One command as the top-level help lists it, and where its definition lives. */
export interface CommandEntry extends CommandHelp {
  load(): Promise<CommandModule>;
}

const LOADERS: Record<string, () => Promise<CommandModule>> = {
  "list": () => import("./list.js"),
  "prepare": () => import("./prepare.js"),
  "grade-sample": () => import("./grade-sample.js"),
  "grade": () => import("./grade.js"),
  "run": () => import("./run.js"),
  "worker": () => import("./worker.js"),
  "status": () => import("./status.js"),
  "pull": () => import("./pull.js"),
  "tasks": () => import("./tasks.js"),
  "integrity": () => import("./integrity.js"),
  "report": () => import("./report.js"),
  "bundle": () => import("./bundle.js"),
  "verify": () => import("./verify.js"),
  "view": () => import("./view.js"),
  "doctor": () => import("./doctor.js"),
  "demo": () => import("./demo.js"),
};

/**
 * Every command, in help order. Only the module of the command being run is imported, so
 * `mlebench --version` or `mlebench list` never loads the runner, the queue clients or the research
 * tasks; a test checks each `term` and `summary` against the module's own definition.
 */
export const COMMANDS: readonly CommandEntry[] = COMMAND_HELP.map((h) => {
  const load = LOADERS[h.name];
  if (!load) throw new Error(`cli/commands.ts has no module for the command "${h.name}"`);
  return { ...h, load };
});

/**
 * The command the arguments ask for, if it is one of ours: the first word that is not a flag (the
 * program's own flags take no values), or the word after `help`.
 */
export function chosenCommand(args: readonly string[]): CommandEntry | undefined {
  const words = args.filter((a) => !a.startsWith("-"));
  const name = words[0] === "help" ? words[1] : words[0];
  return COMMANDS.find((c) => c.name === name);
}
