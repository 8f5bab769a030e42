import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("us-patent-phrase-to-phrase-matching", { grader: () => import("./grade.js") });
