import { fileURLToPath } from "node:url";
import type { Competition, PackageSource } from "../../core/competition.js";
import { CLASSES } from "./classes.js";

/** One source per novel: the package ships each as a character vector of text lines. */
const sources: Record<string, PackageSource> = Object.fromEntries(
  CLASSES.map((name) => [name, { kind: "r", package: "r-cran-janeaustenr", library: "janeaustenr", dataset: name }]),
);

export const competition: Competition = {
  id: "austen-novels",
  name: "Jane Austen: which novel is this passage from?",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 19,
    sources,
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
