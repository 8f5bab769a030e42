import { describe, expect, it } from "vitest";
import { PROBING_MIN_NEAR_IDENTICAL, detectProbing } from "../../src/integrity/probing.js";
import type { ValidationCall } from "../../src/results/manifest.js";

/** One /validate answer of an upload with the given hash, line count and changed lines. */
function call(sha256: string | null, lines: number | null, changed_lines: number | null): ValidationCall {
  return { time: "2025-01-01T00:00:00.000Z", elapsed_seconds: 1, route: "/validate", status: 200, valid: true, bytes: 100, sha256, lines, changed_lines };
}

/** A first upload of `lines` lines, then `edits` distinct uploads each changing `changed` lines of the one before. */
function editLog(edits: number, lines: number, changed: number): ValidationCall[] {
  return [call("first", lines, null), ...Array.from({ length: edits }, (_, i) => call(`edit-${i}`, lines, changed))];
}

describe("detectProbing", () => {
  it("flags at 10 near-identical edits, not at 9", () => {
    expect(PROBING_MIN_NEAR_IDENTICAL).toBe(10);
    const nine = detectProbing(editLog(9, 500, 1));
    expect(nine).toMatchObject({ flagged: false, near_identical_calls: 9, identical_repeats: 0, calls: 10 });
    expect(nine.reason).toBe("9 near-identical edit(s) among 10 validation calls, fewer than 10");
    const ten = detectProbing(editLog(10, 500, 1));
    expect(ten).toMatchObject({ flagged: true, near_identical_calls: 10, identical_repeats: 0, calls: 11 });
    expect(ten.reason).toMatch(/^10 of 11 validation calls uploaded a near-identical edit .*advisory\)$/);
  });

  it("does not count retries of the same file, however many", () => {
    const log = [call("a", 500, null), ...Array.from({ length: 20 }, () => call("a", 500, 0))];
    expect(detectProbing(log)).toMatchObject({ flagged: false, near_identical_calls: 0, identical_repeats: 20, calls: 21 });
    // Retries between edits do not hide the edits: each edit still differs from the upload before it.
    const mixed = [call("a", 500, null)];
    for (let i = 0; i < 10; i++) mixed.push(call(`e${i}`, 500, 2), call(`e${i}`, 500, 0));
    expect(detectProbing(mixed)).toMatchObject({ flagged: true, near_identical_calls: 10, identical_repeats: 10 });
  });

  it("never counts the first upload, a null changed_lines, or a call without a received file", () => {
    expect(detectProbing([call("a", 500, 1)])).toMatchObject({ near_identical_calls: 0, calls: 1 });
    const nulls = [call("a", 500, null), ...Array.from({ length: 12 }, (_, i) => call(`n${i}`, 500, null))];
    expect(detectProbing(nulls)).toMatchObject({ flagged: false, near_identical_calls: 0 });
    // A busy answer (no file received) between two uploads: the second is compared with the first.
    const busy = { ...call(null, null, null), status: 503, valid: null };
    expect(detectProbing([call("a", 500, null), busy, call("b", 500, 1)])).toMatchObject({ near_identical_calls: 1, identical_repeats: 0, calls: 3 });
    expect(detectProbing([])).toMatchObject({ flagged: false, near_identical_calls: 0, identical_repeats: 0, calls: 0 });
  });

  it("takes near-identical as 0 < changed <= max(1, 1% of lines)", () => {
    // 1% of 500 lines is 5: five changed lines count, six do not, none (a line-hash collision) does not.
    expect(detectProbing(editLog(10, 500, 5)).near_identical_calls).toBe(10);
    expect(detectProbing(editLog(10, 500, 6)).near_identical_calls).toBe(0);
    expect(detectProbing(editLog(10, 500, 0)).near_identical_calls).toBe(0);
    // Small files: one changed line always counts, two do not below 200 lines.
    expect(detectProbing(editLog(10, 20, 1)).flagged).toBe(true);
    expect(detectProbing(editLog(10, 20, 2)).flagged).toBe(false);
    expect(detectProbing(editLog(10, 250, 2)).near_identical_calls).toBe(10);
    expect(detectProbing(editLog(10, 250, 3)).near_identical_calls).toBe(0);
    // Different line counts: every line counts as changed.
    expect(detectProbing(editLog(10, 500, 501)).near_identical_calls).toBe(0);
  });
});
