import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("facebook-recruiting-iii-keyword-extraction", { grader: () => import("./grade.js") });
