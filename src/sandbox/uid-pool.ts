/**
 * One host uid per run, for sandboxes the harness starts as root. Runs that shared a uid would
 * share everything the kernel keeps per user: the user keyring, RLIMIT_NPROC's count, inotify and
 * message-queue quotas, and the right to signal and ptrace each other's processes.
 *
 * Leases are files in a root-only folder, named `<uid>.<holder>` where the holder names a live
 * process (pid and start time) and a counter. A claimant writes its own entry, then lists the
 * entries of that uid, and holds the uid only if its entry is the one live entry there; otherwise
 * it removes its entry and tries another uid. Of two claimants, the later writer always sees the
 * earlier one's entry, so no uid is ever held twice, across any number of harness processes on
 * the machine; a killed harness's leases count as free.
 */
import { randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { processStart } from "./process.js";

/** Where leases live when nothing else is said: /run is root-only and emptied at boot. */
export const DEFAULT_LEASE_DIR = "/run/mlebench/uid-leases";

/** The default range: far above login users, systemd's dynamic users and the usual subuid ranges. */
export const DEFAULT_UID_RANGE = { first: 1_900_000_000, count: 1_000_000 } as const;

/** A range of host uids, from `MLEBENCH_SANDBOX_UIDS` ("FIRST-LAST") or the default. */
export function uidRange(env: NodeJS.ProcessEnv = process.env): { first: number; count: number } {
  const text = env.MLEBENCH_SANDBOX_UIDS;
  if (!text) return { ...DEFAULT_UID_RANGE };
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text);
  const first = m ? Number(m[1]) : NaN;
  const last = m ? Number(m[2]) : NaN;
  if (!m || first < 1000 || last < first || last > 4_294_967_294) {
    throw new UserError(`MLEBENCH_SANDBOX_UIDS: "${text}" is not a uid range; expected FIRST-LAST with 1000 <= FIRST <= LAST < 4294967295, e.g. 1900000000-1900999999`);
  }
  return { first, count: last - first + 1 };
}

/** A uid held for one run; release() gives it back (idempotent). */
export interface UidLease {
  uid: number;
  release(): void;
}

const self = `${process.pid}-${processStart(process.pid) ?? "0"}`;
let counter = 0;

/** Whether the holder part of a lease name ("<pid>-<start>-<n>") names a process that still runs. */
function holderAlive(holder: string): boolean {
  const m = /^(\d+)-(\d+)-\d+$/.exec(holder);
  if (!m) return false;
  return processStart(Number(m[1])) === m[2];
}

/** The lease folder, made root-only; refused if something else sits there (a link, another owner). */
function leaseDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.uid !== process.getuid?.() || (st.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a private folder of this user (a link, or writable by others); remove it so uid leases can be kept there`);
  }
  return dir;
}

/** Try to hold `uid`; true when this claimant won it. */
function tryClaim(dir: string, uid: number): { won: boolean; name: string } {
  const name = `${uid}.${self}-${++counter}`;
  fs.writeFileSync(path.join(dir, name), "", { flag: "wx", mode: 0o600 });
  const prefix = `${uid}.`;
  const live: string[] = [];
  for (const entry of fs.readdirSync(dir)) {
    if (!entry.startsWith(prefix)) continue;
    if (entry === name || holderAlive(entry.slice(prefix.length))) live.push(entry);
    else fs.rmSync(path.join(dir, entry), { force: true }); // a dead holder's lease
  }
  const won = live.length === 1;
  if (!won) fs.rmSync(path.join(dir, name), { force: true });
  return { won, name };
}

/** Hold a free uid of the range, starting at a random place so a finished run's uid is seldom the next one's. */
export function leaseUid(opts: { dir?: string; range?: { first: number; count: number } } = {}): UidLease {
  const dir = leaseDir(opts.dir ?? DEFAULT_LEASE_DIR);
  const range = opts.range ?? uidRange();
  const start = randomInt(0, Math.min(range.count, 2 ** 31));
  const tries = Math.min(range.count, 10_000);
  for (let i = 0; i < tries; i++) {
    const uid = range.first + ((start + i) % range.count);
    const claim = tryClaim(dir, uid);
    if (!claim.won) continue;
    let held = true;
    return {
      uid,
      release() {
        if (!held) return;
        held = false;
        fs.rmSync(path.join(dir, claim.name), { force: true });
      },
    };
  }
  throw new Error(`no free sandbox uid in ${range.first}-${range.first + range.count - 1} after ${tries} tries (leases in ${dir}); widen MLEBENCH_SANDBOX_UIDS`);
}
