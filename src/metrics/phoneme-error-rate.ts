// Phoneme error rate, the usual score of grapheme-to-phoneme conversion: edit operations over
// whole phoneme tokens, pooled over the corpus rather than averaged per word, so a long word
// weighs by its length.
import { levenshteinSeq } from "./levenshtein.js";

/** A pronunciation written as phoneme tokens separated by whitespace; blank text is no phonemes. */
export function phonemeTokens(text: string): string[] {
  const trimmed = text.trim();
  return trimmed === "" ? [] : trimmed.split(/\s+/);
}

/**
 * Total token-level Levenshtein distance between each hypothesis and its reference, divided by
 * the total number of reference tokens; 0 is perfect, and it can exceed 1 (insertions count).
 */
export function phonemeErrorRate(references: readonly (readonly string[])[], hypotheses: readonly (readonly string[])[]): number {
  if (references.length !== hypotheses.length) {
    throw new Error(`phonemeErrorRate: ${references.length} references but ${hypotheses.length} hypotheses`);
  }
  let edits = 0;
  let length = 0;
  for (let i = 0; i < references.length; i++) {
    edits += levenshteinSeq(references[i], hypotheses[i]);
    length += references[i].length;
  }
  if (length === 0) throw new Error("phonemeErrorRate: the references hold no phonemes");
  return edits / length;
}
