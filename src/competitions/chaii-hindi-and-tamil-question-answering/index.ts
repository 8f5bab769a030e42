import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("chaii-hindi-and-tamil-question-answering", { grader: () => import("./grade.js") });
