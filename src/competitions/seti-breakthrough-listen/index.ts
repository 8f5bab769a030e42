import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("seti-breakthrough-listen", { grader: () => import("./grade.js") });
