import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("invasive-species-monitoring", { grader: () => import("./grade.js") });
