import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("chaii-hindi-and-tamil-question-answering", { grade });
