import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("jigsaw-toxic-comment-classification-challenge", { grader: () => import("./grade.js") });
