import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("h-and-m-personalized-fashion-recommendations", {
  grader: () => import("./grade.js"),
  category: "Recommender Systems",
});
