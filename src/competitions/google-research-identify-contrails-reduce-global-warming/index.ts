import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("google-research-identify-contrails-reduce-global-warming", { grader: () => import("./grade.js") });
