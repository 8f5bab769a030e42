import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { formatCsv } from "../../src/io/csv-write.js";
import { takeRows } from "../../src/prepare/frame.js";
import { oneHotTable } from "../../src/prepare/one-hot.js";

const INPUT = "id,label,x\n7,b,1.5\n3,a,2\n9,b,\n1,c,0\n";

describe("oneHotTable", () => {
  it("writes what pandas writes for df_to_one_hot on a shuffled frame", () => {
    // Expected text printed by pandas 1.5 for the same rows, classes and order.
    const t = takeRows(parseCsv(INPUT), [2, 0, 3, 1]);
    const out = oneHotTable(t, "id", "label", ["c", "a", "b", "d"]);
    expect(out.columns).toEqual(["id", "c", "a", "b", "d"]);
    expect(formatCsv(out)).toBe("id,c,a,b,d\n9,0,0,1,0\n7,0,0,1,0\n1,1,0,0,0\n3,0,1,0,0\n");
  });

  it("keeps the id column as read, string ids included", () => {
    const t = parseCsv('id,label\n"00a,1",x\n0012,y\n');
    expect(formatCsv(oneHotTable(t, "id", "label", ["y", "x"]))).toBe('id,y,x\n"00a,1",0,1\n0012,1,0\n');
  });

  it("handles an empty frame", () => {
    const t = parseCsv("id,label\n");
    expect(formatCsv(oneHotTable(t, "id", "label", ["a", "b"]))).toBe("id,a,b\n");
  });

  it("refuses labels outside the classes, naming the row", () => {
    const t = parseCsv(INPUT);
    expect(() => oneHotTable(t, "id", "label", ["a", "b"], "labels.csv")).toThrow(UserError);
    expect(() => oneHotTable(t, "id", "label", ["a", "b"], "labels.csv")).toThrow(/labels\.csv: column "label" holds "c" \(row with id 1\)/);
    const gap = parseCsv("id,label\nq,\n");
    expect(() => oneHotTable(gap, "id", "label", ["a"])).toThrow(/a missing value/);
  });

  it("names missing columns", () => {
    const t = parseCsv(INPUT);
    expect(() => oneHotTable(t, "key", "label", ["a"], "f.csv")).toThrow(/f\.csv: no column "key"/);
    expect(() => oneHotTable(t, "id", "breed", ["a"], "f.csv")).toThrow(/f\.csv: no column "breed"/);
  });
});
