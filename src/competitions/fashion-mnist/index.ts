import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

const DIR = "/usr/share/datasets/fashion-mnist";
const source = (file: string) => ({ kind: "debian" as const, package: "dataset-fashion-mnist", path: `${DIR}/${file}` });

export const competition: Competition = {
  id: "fashion-mnist",
  name: "Fashion-MNIST: what is this garment?",
  type: "simple",
  complexity: "low",
  category: "Image Classification",
  metric: "accuracy",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 7,
    sources: {
      trainImages: source("train-images-idx3-ubyte.gz"),
      trainLabels: source("train-labels-idx1-ubyte.gz"),
      testImages: source("t10k-images-idx3-ubyte.gz"),
      testLabels: source("t10k-labels-idx1-ubyte.gz"),
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
