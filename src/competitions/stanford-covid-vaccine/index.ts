import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("stanford-covid-vaccine", { grader: () => import("./grade.js") });
