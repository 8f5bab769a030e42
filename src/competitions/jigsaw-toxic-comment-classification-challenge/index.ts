import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("jigsaw-toxic-comment-classification-challenge", { grade });
