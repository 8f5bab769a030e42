import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("tensorflow2-question-answering", {
  grader: () => import("./grade.js"),
  // Each answers line also holds the whole Wikipedia page; grading needs only these.
  answersFields: ["example_id", "annotations"],
});
