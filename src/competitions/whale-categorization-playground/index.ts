import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("whale-categorization-playground", { grader: () => import("./grade.js") });
