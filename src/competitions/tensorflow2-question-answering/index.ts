import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("tensorflow2-question-answering", {
  grade,
  // Each answers line also holds the whole Wikipedia page; grading needs only these.
  answersFields: ["example_id", "annotations"],
});
