import { describe, expect, it } from "vitest";
import { InvalidSubmissionError } from "../../src/core/errors.js";
import { makeTable } from "../../src/core/table.js";
import { box3d, convexIntersectionArea, iou3d } from "../../src/competitions/3d-object-detection-for-autonomous-vehicles/box3d.js";
import { parseBoxes } from "../../src/competitions/3d-object-detection-for-autonomous-vehicles/boxes.js";
import { grade } from "../../src/competitions/3d-object-detection-for-autonomous-vehicles/grade.js";
import { pyFloat } from "../../src/pycompat/pynum.js";

// IoUs from shapely polygons and numpy (the oracle in scripts/golden/grader_cases), predicted box first.
const GOLDEN: [string, string, number][] = [
  ["1.0 2742.15 673.16 -18.65 1.834 4.609 1.648 2.6198 car", "1.0 2742.15 673.16 -18.65 1.834 4.609 1.648 2.6198 car", 1.0],
  ["1.0 1000.0 500.0 -20.0 2.0 4.0 1.5 0.0 car", "1.0 1001.0 500.0 -20.0 2.0 4.0 1.5 0.0 car", 0.6],
  ["1.0 1000.0 500.0 -20.0 2.0 4.0 1.5 0.0 car", "1.0 1000.0 500.0 -20.0 2.0 4.0 1.5 1.5707963267948966 car", 0.3333333333333333],
  ["1.0 1000.0 500.0 -20.0 2.0 4.0 1.5 0.7853981633974483 car", "1.0 1000.5 500.2 -19.6 2.2 4.4 1.7 0.1 car", 0.3316961698191928],
  ["1.0 1000.0 500.0 -20.0 2.0 4.0 1.5 0.3 car", "1.0 1003.0 503.0 -20.0 2.0 4.0 1.5 -0.3 car", 0.0],
  ["1.0 1000.0 500.0 -20.0 2.0 4.0 1.5 0.3 car", "1.0 1000.0 500.0 -18.0 2.0 4.0 1.5 0.3 car", 0.0],
  ["1.0 506.03238130968435 2405.7807390483094 -20 2.753636925763574 3.893860711323765 4.911958047986411 0.3079669632834694 car", "1.0 505.2434582810586 2405.7828046212153 -20.000445192928964 3.716919984483762 4.214956144417502 2.5237645325941536 -3.472509224752759 car", 0.3339344158543264],
  ["1.0 1077.9931181315826 2755.902524842957 -20 1.853541414319662 2.8084958472707324 4.724824078756087 -3.800806179597216 car", "1.0 1076.2383938252372 2756.457105154849 -19.93805954735648 1.9212115160838592 3.1939596769441216 4.6365134995469255 -2.9346444339259987 car", 0.1848049042704325],
  ["1.0 1713.2139678191677 2326.106619575494 -20 3.676052963535655 2.871011438979923 1.8193963611911803 -0.07387288727143648 car", "1.0 1712.80873996374 2323.818304473522 -19.47530172532837 4.074590026078037 2.2559787088506487 3.290501330575816 -1.7916076133544392 car", 0.07147706646524203],
  ["1.0 1522.6759178752811 1253.0415880498658 -20 3.629597851119033 2.481404331952141 2.8363719115657258 1.7545929800723323 car", "1.0 1522.2594435567612 1253.8823212920095 -20.089993200626175 1.7218064768107264 3.964475491653057 2.6894961745725614 -0.5883714185204614 car", 0.34872489357625036],
  ["1.0 2012.8256453113647 1711.8467427765322 -20 2.6595439137577728 1.0057075222510328 1.3690493833870083 1.6751551498017019 car", "1.0 2014.7376641736967 1712.0840446231693 -19.949283007394193 1.2125147626918302 2.2354107394551885 3.370378749293492 -2.1190367419402856 car", 0.02397889608324634],
  ["1.0 2905.4216987475425 2851.630204240543 -20 4.393603523350755 2.889295985153609 4.365906859593589 -2.9511148612166886 car", "1.0 2905.674276483098 2851.2613857720953 -20.953184939265235 3.967388802733867 2.9433009148355866 1.5475044751898035 -1.2517077623651334 car", 0.22034038753826019],
  ["1.0 1175.950658115596 1111.1310416587073 -20 1.6620056018631497 2.659607090293008 2.7924826300108934 2.1992030065121373 car", "1.0 1176.059306487091 1112.569281179441 -19.248340739791544 4.549155807410939 3.6996750794671507 4.201916195993855 3.512890829857483 car", 0.14726915257616427],
  ["1.0 409.7706854790516 2664.313657149225 -20 2.106252289804537 2.903057997696977 4.187043827727609 1.7379378582018399 car", "1.0 409.55795251203403 2664.729159763523 -20.46177232835661 1.2770082800393419 2.428282513411516 4.251318200654826 -0.5783613357795954 car", 0.3778098366463256],
];

function solid(text: string) {
  const box = box3d(parseBoxes(text, "test"), 0);
  if (typeof box === "string") throw new Error(box);
  return box;
}

describe("3d-object-detection-for-autonomous-vehicles geometry", () => {
  it.each(GOLDEN)("IoU of %s with %s is %s", (pred, gt, want) => {
    expect(Math.abs(iou3d(solid(pred), solid(gt)) - want)).toBeLessThan(1e-12);
  });

  it("intersects convex polygons in either orientation", () => {
    const square = new Float64Array([0, 0, 2, 0, 2, 2, 0, 2]);
    const shifted = new Float64Array([1, 1, 1, 3, 3, 3, 3, 1]);
    expect(convexIntersectionArea(square, shifted)).toBeCloseTo(1, 14);
    expect(convexIntersectionArea(shifted, square)).toBeCloseTo(1, 14);
    expect(convexIntersectionArea(square, new Float64Array([5, 5, 6, 5, 6, 6, 5, 6]))).toBe(0);
  });

  it("refuses boxes as the official Box3D does", () => {
    const reason = (s: string) => box3d(parseBoxes(s, "test"), 0);
    expect(reason("1 nan 0 0 1 1 1 0 car")).toMatch(/centre/);
    expect(reason("1 0 0 0 1 nan 1 0 car")).toMatch(/size/);
    expect(reason("1 0 0 0 1 1 1 nan car")).toMatch(/yaw/);
    expect(reason("1 0 0 0 1 0 1 0 car")).toMatch(/positive/);
    expect(reason("1 inf 0 0 1 1 1 0 car")).toMatch(/rectangle/);
    expect(reason("1 3.1e9 2.7e9 0 2 4 1.5 0.7 car")).toMatch(/rectangle/);
    expect(typeof reason("1 3.1e9 2.7e9 0 2 4 1.5 0 car")).not.toBe("string");
  });
});

describe("3d-object-detection-for-autonomous-vehicles parsing", () => {
  it("reads numbers as Python's float() does", () => {
    expect(pyFloat(" +1_000.5e0\t")).toBe(1000.5);
    expect(pyFloat(".5")).toBe(0.5);
    expect(pyFloat("1.")).toBe(1);
    expect(pyFloat("-Infinity")).toBe(-Infinity);
    expect(pyFloat("NaN")).toBeNaN();
    for (const bad of ["", "1__0", "_1", "1_", "0x10", "1e", "car", "1,5"]) expect(pyFloat(bad)).toBeNull();
  });

  it("splits on single spaces only", () => {
    expect(parseBoxes("  ", "row").count).toBe(0);
    expect(parseBoxes("1 2 3 4 5 6 7 8 car 0.5 2 3 4 5 6 7 8 bus", "row").name).toEqual(["car", "bus"]);
    expect(() => parseBoxes("1 2 3 4 5 6 7 8 car ", "row")).toThrow(/10 space-separated tokens/);
    expect(() => parseBoxes("1  2 3 4 5 6 7 8", "row")).toThrow(/center_x ""/);
    expect(() => parseBoxes("1 2 3 4 5 6 7 inf car", "row")).toThrow(/infinite yaw/);
  });
});

describe("3d-object-detection-for-autonomous-vehicles confidences", () => {
  const id = "a".repeat(64);
  const answers = makeTable([
    ["Id", { kind: "string", values: [id] }],
    ["PredictionString", { kind: "string", values: ["1.0 1000 500 -20 2 4 1.5 0.3 car 1.0 1010 500 -20 2 4 1.5 0.3 car"] }],
  ]);
  const submission = (boxes: string) =>
    makeTable([
      ["Id", { kind: "string", values: [id] }],
      ["PredictionString", { kind: "string", values: [boxes] }],
    ]);

  it("ranks by confidence, then string order", () => {
    // The better box first wins the match at every threshold; second, it takes only the loose ones.
    const good = "0.5 1000 500 -20 2 4 1.5 0.3 car";
    const poor = "0.5 1000.6 500 -20 2 4 1.5 0.3 car";
    expect(grade(submission(`${good} ${poor}`), answers)).toBeGreaterThan(grade(submission(`${poor} ${good}`), answers));
  });

  it("refuses a NaN confidence among boxes that must be ranked, but not a lone one", () => {
    const nan = "nan 1000 500 -20 2 4 1.5 0.3 car";
    expect(() => grade(submission(`${nan} 0.5 1010 500 -20 2 4 1.5 0.3 car`), answers)).toThrow(InvalidSubmissionError);
    expect(() => grade(submission(`${nan} 0.5 1010 500 -20 2 4 1.5 0.3 car`), answers)).toThrow(/confidence of nan/);
    expect(grade(submission(nan), answers)).toBeCloseTo(0.5, 12);
    // Boxes of a class the sample has no true box of are never ranked.
    expect(grade(submission(`${nan.replace("car", "bus")} nan 1 1 1 1 1 1 0 bus`), answers)).toBe(0);
  });
});
