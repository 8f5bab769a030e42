import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("lmsys-chatbot-arena", { grader: () => import("./grade.js") });
