import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { CLI, REPO } from "./cli.js";

/** An unprivileged user the harness is run as, to test the commands the way a user without root runs them. */
export interface TestUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * MLEBENCH_TEST_USER (a login user made with useradd, as .ci/run makes one), else nobody (65534).
 * A name that does not exist is an error, so a CI run cannot quietly test the fallback instead.
 */
function lookupUser(): TestUser {
  const name = process.env.MLEBENCH_TEST_USER;
  if (!name) return { name: "nobody", uid: 65534, gid: 65534 };
  const r = spawnSync("getent", ["passwd", name], { encoding: "utf8" });
  const fields = r.stdout.trim().split(":");
  if (r.status !== 0 || fields.length < 4) throw new Error(`MLEBENCH_TEST_USER=${name}: no such user (getent passwd ${name} found nothing)`);
  return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
}

export const TEST_USER: TestUser = lookupUser();

/** argv running `argv` as the test user, with that user's own groups only. */
export function asUser(argv: string[]): string[] {
  const groups = TEST_USER.name === "nobody" ? ["--clear-groups"] : ["--init-groups"];
  return ["/usr/bin/setpriv", `--reuid=${TEST_USER.uid}`, `--regid=${TEST_USER.gid}`, ...groups, "--", ...argv];
}

/**
 * `mlebench <args>` run as the test user, with `home` as its HOME and TMPDIR and nothing of this
 * process's data dir or model settings.
 */
export function mlebenchAsUser(args: string[], home: string): SpawnSyncReturns<string> {
  const { MLEBENCH_DATA_DIR: _d, MLEBENCH_LLM_MODEL: _m, ...env } = process.env;
  const argv = asUser([process.execPath, CLI, ...args]);
  return spawnSync(argv[0]!, argv.slice(1), { cwd: REPO, env: { ...env, HOME: home, TMPDIR: home }, encoding: "utf8", timeout: 300_000 });
}

/** Why the harness cannot be run as the test user here (not root, no user namespaces for it, an unreadable build), else null. */
export function userUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "needs root to switch to an unprivileged user";
  const run = (argv: string[]) => spawnSync(argv[0]!, argv.slice(1)).status;
  if (run(asUser(["/usr/bin/bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--ro-bind", "/", "/", "true"])) !== 0) {
    return `bwrap cannot make user namespaces for ${TEST_USER.name} here`;
  }
  return run(asUser([process.execPath, CLI, "--version"])) === 0
    ? null
    : `${TEST_USER.name} (uid ${TEST_USER.uid}) cannot run ${CLI} (the checkout is not readable by other users)`;
}
