import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "ml2021spring-hw2",
  name: "ML2021Spring-hw2",
  type: "simple",
  metric: "accuracy",
  answers: "answers.csv",
  sampleSubmission: "sampleSubmission.csv",
  grade,
};
