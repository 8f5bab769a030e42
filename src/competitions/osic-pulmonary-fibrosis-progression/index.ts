import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("osic-pulmonary-fibrosis-progression", { grader: () => import("./grade.js") });
