import { describe, expect, it } from "vitest";
import { eachLimit } from "../../src/core/each-limit.js";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("eachLimit", () => {
  it("runs every item, never more than the limit at once", async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await eachLimit([1, 2, 3, 4, 5, 6, 7], 3, async (x) => {
      running++;
      most = Math.max(most, running);
      await tick(5 + (x % 3));
      seen.push(x);
      running--;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
    await eachLimit([], 4, async () => {
      throw new Error("never called");
    });
  });

  it("stops taking items after a failure and throws the first one once the running ones end", async () => {
    const started: number[] = [];
    let finished = 0;
    const run = eachLimit([1, 2, 3, 4, 5, 6], 2, async (x) => {
      started.push(x);
      if (x === 2) throw new Error("item 2 failed");
      await tick(20);
      finished++;
    });
    await expect(run).rejects.toThrow("item 2 failed");
    expect(started).toEqual([1, 2]);
    expect(finished).toBe(1);
  });
});
