import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("predict-volcanic-eruptions-ingv-oe", { grader: () => import("./grade.js") });
