import { describe, expect, it } from "vitest";
import { InvalidSubmissionError } from "../../src/core/errors.js";
import { parseCsv } from "../../src/io/csv-read.js";
import { grade as gradeSiim } from "../../src/competitions/siim-covid19-detection/grade.js";
import { grade as gradeVinbig } from "../../src/competitions/vinbigdata-chest-xray-abnormalities-detection/grade.js";
import {
  COCO_RECALL_THRESHOLDS,
  cocoIou,
  cornerIou,
  descendingOrder,
} from "../../src/metrics/detection-map.js";
import { pyFloat as pythonFloat } from "../../src/pycompat/pynum.js";
import { pySplit as pythonSplit } from "../../src/pycompat/pystr.js";

// Golden values from pycocotools 2.0.11 (mask.iou) and upstream's grade.py run with Python 3.11.
describe("box overlap", () => {
  it("reads boxes as (x, y, w, h) with C's fmin/fmax, as pycocotools does", () => {
    expect(cocoIou([0, 0, 10, 10], 0, [5, 5, 10, 10], 0)).toBe(0.14285714285714285);
    expect(cocoIou([NaN, 0, 10, 10], 0, [5, 5, 10, 10], 0)).toBe(0.3333333333333333);
    expect(cocoIou([0, 0, -3, 10], 0, [0, 0, 10, 10], 0)).toBe(0);
    expect(cocoIou([2, 3, Infinity, 4], 0, [0, 0, 10, 10], 0)).toBe(0);
    expect(cocoIou([549, 1517, 802, 1706], 0, [560, 1500, 790, 1710], 0)).toBe(0.9680293447940929);
  });

  it("computes corner-box IoU with Python's max/min, so NaN coordinates overlap nothing", () => {
    expect(cornerIou([0, 0, 10, 10], 0, [5, 5, 15, 15], 0)).toBe(0.14285714285714285);
    expect(cornerIou([NaN, 0, 10, 10], 0, [5, 5, 10, 10], 0)).toBe(0);
    expect(cornerIou([5, 5, 10, 10], 0, [NaN, 0, 10, 10], 0)).toBe(0);
  });
});

describe("ordering and thresholds", () => {
  it("orders by descending score, ties in original order, NaN last", () => {
    expect(Array.from(descendingOrder([0.5, NaN, 0.9, 0.5, -Infinity, 0.9]))).toEqual([2, 5, 0, 3, 4, 1]);
    expect(Array.from(descendingOrder([3, 1, 2, 1], [3, 1, 2]))).toEqual([2, 3, 1]);
  });

  it("uses numpy's linspace(0, 1, 101) recall thresholds", () => {
    expect(COCO_RECALL_THRESHOLDS.length).toBe(101);
    expect(COCO_RECALL_THRESHOLDS[7]).toBe(0.07);
    expect(COCO_RECALL_THRESHOLDS[29]).toBe(29 * 0.01);
    expect(COCO_RECALL_THRESHOLDS[100]).toBe(1);
  });
});

describe("Python token parsing", () => {
  it("splits on runs of any Python whitespace", () => {
    expect(pythonSplit("  a\t1\u00a0 2\n")).toEqual(["a", "1", "2"]);
    expect(pythonSplit(" \u3000 ")).toEqual([]);
  });

  it("parses floats as Python's float() does", () => {
    expect(pythonFloat("1_0.5")).toBe(10.5);
    expect(pythonFloat(" 1e3 ")).toBe(1000);
    expect(pythonFloat(".5")).toBe(0.5);
    expect(pythonFloat("1.")).toBe(1);
    expect(pythonFloat("-Infinity")).toBe(-Infinity);
    expect(pythonFloat("NaN")).toBeNaN();
    for (const bad of ["", "1e", "0x10", "1__0", "_1", "1.2.3", "--1", "."]) expect(pythonFloat(bad)).toBeNull();
  });
});

describe("vinbigdata COCO evaluation", () => {
  const answers = parseCsv(
    "image_id,class_id,x_min,y_min,x_max,y_max\na,0,10,10,50,50\na,1,0,0,30,30\nb,0,100,100,140,160\nb,14,0,0,1,1\n",
  );
  it("matches upstream on a small hand-made case", () => {
    const sub = parseCsv(
      "image_id,PredictionString\nb,0 0.9 100 100 140 160 14 0.5 0 0 1 1 0 0.8 5 5 9 9\na,1 0.7 0 0 30 30 0 0.6 10 10 50 50 1 0.95 200 200 220 230\n",
    );
    expect(gradeVinbig(sub, answers)).toBe(0.6683168316831682);
  });

  it("scores NaN confidences last and lets the first detection match a truth twice", () => {
    const sub = parseCsv("image_id,PredictionString\na,0 0.9 12 10 50 50 0 0.9 10 10 50 50\nb,0 nan 100 100 140 160 14 0.5 0 0 1 1\n");
    expect(gradeVinbig(sub, answers)).toBe(0.3894389438943893);
  });
});

describe("siim-covid19-detection differences from upstream", () => {
  const answers = parseCsv("id,PredictionString\nx_study,negative 1 0 0 1 1\ny_image,opacity 1 0 0 10 10\n");
  it("rejects a NaN confidence even on a label that is not scored (upstream's result there depends on its sort internals)", () => {
    const sub = parseCsv("id,PredictionString\nx_study,negative 1 0 0 1 1 zz nan 0 0 1 1\ny_image,opacity 0.5 0 0 10 10\n");
    expect(() => gradeSiim(sub, answers)).toThrow(/confidence nan/);
  });

  it("rejects, with a reason, the case where a label has no negative pair (upstream fails an assertion)", () => {
    const one = parseCsv("id,PredictionString\nx_study,negative 1 0 0 1 1\n");
    expect(() => gradeSiim(one, one)).toThrow(InvalidSubmissionError);
    expect(() => gradeSiim(one, one)).toThrow(/no negative example/);
  });
});
