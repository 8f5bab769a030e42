import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("us-patent-phrase-to-phrase-matching", { grade });
