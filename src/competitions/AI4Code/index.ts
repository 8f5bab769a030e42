import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "AI4Code",
  name: "Google AI4Code - Understand Code in Python Notebooks",
  type: "code",
  complexity: "medium",
  metric: "kendall-tau",
  answers: "test_orders.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
