/**
 * The folder a task's scorer shares with the sandboxed evaluation it runs: created by the harness
 * inside the workspace (the one folder both sides see), owned by the workspace's owner (the
 * agent's uid when the harness is root) so the evaluation can write its results there, and read
 * back without following links and within a size bound, since the agent's code ran in between.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { InvalidSubmissionError } from "../../core/errors.js";
import { removeTree } from "../../io/remove-tree.js";
import { describeSkip, lstatOrNull, readFileUnder } from "../../io/untrusted.js";

/** A hidden folder of the workspace for one evaluation. */
export interface EvalDir {
  /** Its name, relative to the workspace (what the sandboxed script is given). */
  name: string;
  /** Its host path, for the harness's own inputs. */
  path: string;
  /** Whether the evaluation left anything (a link too) at `file`. */
  has(file: string): boolean;
  /** The bytes of `file` as the evaluation wrote it; an InvalidSubmissionError naming `what` when it is not a regular file or is too large. */
  read(file: string, maxBytes: number, what: string): Buffer;
  remove(): void;
}

/** Create the evaluation folder `<prefix>-<random>` inside `workspaceDir`. */
export function makeEvalDir(workspaceDir: string, prefix: string): EvalDir {
  const name = `${prefix}-${randomBytes(6).toString("hex")}`;
  const dir = path.join(workspaceDir, name);
  fs.mkdirSync(dir);
  if (process.getuid?.() === 0) {
    const owner = fs.statSync(workspaceDir);
    fs.chownSync(dir, owner.uid, owner.gid);
  }
  return {
    name,
    path: dir,
    has(file) {
      return lstatOrNull(path.join(dir, file)) !== null;
    },
    read(file, maxBytes, what) {
      const r = readFileUnder(workspaceDir, `${name}/${file}`, maxBytes);
      if ("skipped" in r) throw new InvalidSubmissionError(`${what} cannot be scored: the evaluation's ${file} is ${describeSkip(r.skipped)}`);
      if (r.truncated) throw new InvalidSubmissionError(`${what} cannot be scored: the evaluation's ${file} is larger than ${maxBytes} bytes`);
      return r.bytes;
    },
    remove() {
      removeTree(dir);
    },
  };
}
