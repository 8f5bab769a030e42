/**
 * Probing: an agent that uploads the same submission again and again with a line or two changed can
 * read the validation server's answers as a signal, one edit at a time. This flag is advisory: it
 * points a reader at a run's validation log, and never disqualifies a run or changes a medal.
 */
import type { ValidationCall } from "../results/manifest.js";

/** Near-identical uploads at or past which a run is flagged. */
export const PROBING_MIN_NEAR_IDENTICAL = 10;

/** An edit is near-identical when it changes at most this fraction of the upload's lines... */
export const NEAR_IDENTICAL_LINE_FRACTION = 0.01;

/** ...or at most this many lines, whichever is larger (small files). */
export const NEAR_IDENTICAL_MIN_LINES = 1;

/** What a run's validation log says about probing. */
export interface ProbingResult {
  flagged: boolean;
  /** Uploads that edited the previous upload by a few lines (a different file, not a retry). */
  near_identical_calls: number;
  /** Uploads byte-identical to the previous one (retries): never counted as probing. */
  identical_repeats: number;
  /** Calls in the log looked at. */
  calls: number;
  /** One line for people. */
  reason: string;
}

/** Whether one upload edits the previous whole upload (sha256 `previous`) by only a few lines. */
function nearIdentical(call: ValidationCall, previous: string | null): boolean {
  if (previous === null || call.sha256 === null || call.changed_lines === null) return false;
  // Same bytes is a retry (a timeout, a busy server), which reveals nothing new.
  if (call.sha256 === previous) return false;
  const limit = Math.max(NEAR_IDENTICAL_MIN_LINES, NEAR_IDENTICAL_LINE_FRACTION * (call.lines ?? 0));
  return call.changed_lines > 0 && call.changed_lines <= limit;
}

/** Flag a run whose validation log shows many near-identical uploads (advisory only). */
export function detectProbing(log: readonly ValidationCall[]): ProbingResult {
  let near = 0;
  let repeats = 0;
  // changed_lines compares with the previous upload received whole, i.e. the previous call with a sha256.
  let previous: string | null = null;
  for (const call of log) {
    if (call.sha256 === null) continue;
    if (call.sha256 === previous) repeats++;
    else if (nearIdentical(call, previous)) near++;
    previous = call.sha256;
  }
  const flagged = near >= PROBING_MIN_NEAR_IDENTICAL;
  const pctText = `${NEAR_IDENTICAL_LINE_FRACTION * 100}%`;
  const reason = flagged
    ? `${near} of ${log.length} validation calls uploaded a near-identical edit of the previous file ` +
      `(at most max(${NEAR_IDENTICAL_MIN_LINES}, ${pctText} of lines) changed); ${PROBING_MIN_NEAR_IDENTICAL} or more flag a run as probing (advisory)`
    : `${near} near-identical edit(s) among ${log.length} validation calls, fewer than ${PROBING_MIN_NEAR_IDENTICAL}`;
  return { flagged, near_identical_calls: near, identical_repeats: repeats, calls: log.length, reason };
}
