import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("spaceship-titanic", {
  grader: () => import("./grade.js"),
  category: "Tabular",
});
