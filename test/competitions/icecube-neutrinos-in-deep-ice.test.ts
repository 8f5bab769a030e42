import { describe, expect, it } from "vitest";
import { describeIdMismatch, wholeIds } from "../../src/competitions/icecube-neutrinos-in-deep-ice/event-order.js";
import { numericSortOrder as idOrder } from "../../src/grading/numeric-order.js";

describe("icecube event_id order", () => {
  it("sorts whole-number ids of any size stably, like a comparison sort", () => {
    const ids = Float64Array.from([7, 2 ** 40 + 3, 65536, 0, 2 ** 40, 7, 65535, 2 ** 53 - 1, 4294967296, 1]);
    const expected = Array.from(ids.keys()).sort((a, b) => ids[a] - ids[b] || a - b);
    expect(Array.from(idOrder(ids))).toEqual(expected);
  });

  it("matches a comparison sort on shuffled random ids", () => {
    const ids = Float64Array.from({ length: 50000 }, (_, i) => ((i * 2654435761) % 2_100_000_000) + 2_000_000);
    const expected = Array.from(ids.keys()).sort((a, b) => ids[a] - ids[b] || a - b);
    expect(Array.from(idOrder(ids))).toEqual(expected);
  });

  it("takes only whole, non-negative, exactly representable ids", () => {
    expect(wholeIds({ kind: "int", values: Float64Array.from([3, 1]) })).not.toBeNull();
    expect(wholeIds({ kind: "float", values: Float64Array.from([3, 1.5]) })).toBeNull();
    expect(wholeIds({ kind: "float", values: Float64Array.from([3, NaN]) })).toBeNull();
    expect(wholeIds({ kind: "int", values: Float64Array.from([-3, 1]) })).toBeNull();
    expect(wholeIds({ kind: "string", values: ["1"] })).toBeNull();
  });

  it("says which ids are missing, unknown or repeated", () => {
    const ans = Float64Array.from([10, 20, 30, 40]);
    const check = (sub: number[]) => {
      const s = Float64Array.from(sub);
      return describeIdMismatch(s, idOrder(s), ans, idOrder(ans));
    };
    expect(check([40, 30, 20, 10])).toBeNull();
    expect(check([10, 20, 30, 50])).toBe("1 answer event_id(s) are missing (e.g. 40); 1 event_id(s) are not in the answers (e.g. 50)");
    expect(check([10, 20, 30, 30])).toBe("1 answer event_id(s) are missing (e.g. 40); 1 row(s) repeat an event_id");
  });
});
