import fs from "node:fs";
import path from "node:path";

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Check the agent's submission before the harness (which may be root) reads it: only a regular
 * file counts. A symbolic link is moved aside, since following it would let an agent point the
 * grader at any host file, the private answers included. Returns why it was set aside, or null.
 */
export function quarantineSubmission(file: string): string | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return null; // no submission: graded as missing
  }
  if (st.isFile()) return null;
  let what = st.isDirectory() ? "a directory" : "not a regular file";
  if (st.isSymbolicLink()) {
    let target = "?";
    try {
      target = fs.readlinkSync(file);
    } catch {
      // unreadable link
    }
    what = `a symbolic link (to ${target})`;
  }
  // The agent may have made the obvious name itself; never let that stop the harness.
  let aside = `${file}.rejected`;
  for (let i = 2; fs.existsSync(aside) || isLink(aside); i++) aside = `${file}.rejected-${i}`;
  fs.renameSync(file, aside);
  return `submission.csv was ${what}; only a regular file is graded (kept as ${path.basename(aside)})`;
}
