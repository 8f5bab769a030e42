#!/usr/bin/env node
import { Command, CommanderError, Help } from "commander";
import { readFileSync } from "node:fs";
import { EXIT } from "./common.js";
import { chosenCommand, COMMANDS } from "./commands.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

// A reader that stops early (`mlebench list | head`) is not an error.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

const chosen = chosenCommand(process.argv.slice(2));
const defaultHelp = new Help();

const program: Command = new Command("mlebench")
  .description("Benchmark machine-learning engineering agents on Kaggle-style competitions.")
  .version(pkg.version, "-V, --version", "print the version")
  .helpOption("-h, --help", "show help for a command")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride()
  .configureHelp({
    // The commands not being run are placeholders without flags; the table knows how each reads.
    subcommandTerm: (cmd: Command): string => {
      const entry = cmd.parent === program ? COMMANDS.find((c) => c.name === cmd.name()) : undefined;
      return entry && entry !== chosen ? entry.term : defaultHelp.subcommandTerm(cmd);
    },
  });

// Only the command being run is defined in full (its module imported); the others are names and
// summaries for the help, so start-up does not load every competition, task and client.
for (const entry of COMMANDS) {
  if (entry === chosen) (await entry.load()).register(program);
  else program.command(entry.name).summary(entry.summary);
}

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
