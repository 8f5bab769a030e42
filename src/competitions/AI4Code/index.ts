import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("AI4Code", { grader: () => import("./grade.js") });
