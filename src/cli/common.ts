import { Option } from "commander";
import { UserError } from "../core/errors.js";

/** Exit statuses shared by every command. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The --data-dir option, documented the same way everywhere. */
export function dataDirOption(): Option {
  return new Option(
    "--data-dir <dir>",
    "data directory holding <id>/prepared/{public,private} and <id>/leaderboard.csv " +
      "(default: $MLEBENCH_DATA_DIR, else <user cache>/mle-bench/data)",
  );
}

/**
 * Run a command body: user errors print their message and exit 2, anything unexpected prints
 * the error and exits 1, so scripts can tell a bad setup from a crash.
 */
export function action<A extends unknown[]>(body: (...args: A) => Promise<number | void> | number | void) {
  return async (...args: A): Promise<void> => {
    try {
      const code = await body(...args);
      process.exitCode = code ?? EXIT.ok;
    } catch (e) {
      if (e instanceof UserError) {
        process.stderr.write(`mlebench: ${e.message}\n`);
        process.exitCode = EXIT.usage;
      } else {
        process.stderr.write(`mlebench: unexpected error: ${(e as Error).stack ?? String(e)}\n`);
        process.exitCode = EXIT.failed;
      }
    }
  };
}
