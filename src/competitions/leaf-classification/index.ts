import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("leaf-classification", { grader: () => import("./grade.js") });
