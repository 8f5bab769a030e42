import fs from "node:fs";
import path from "node:path";

/**
 * Rename whatever is at `p` (a file, link or folder the agent made; renaming never follows a link)
 * to the first free `<p><suffix>`, `<p><suffix>-2`, ...; returns the new path.
 */
export function moveAside(p: string, suffix: string): string {
  const taken = (q: string) => {
    try {
      fs.lstatSync(q);
      return true;
    } catch {
      return false;
    }
  };
  let aside = `${p}${suffix}`;
  for (let i = 2; taken(aside); i++) aside = `${p}${suffix}-${i}`;
  fs.renameSync(p, aside);
  return aside;
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
  const aside = moveAside(file, ".rejected");
  return `submission.csv was ${what}; only a regular file is graded (kept as ${path.basename(aside)})`;
}
