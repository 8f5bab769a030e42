"""Perplexity of the language model in the workspace's output/ folder on the BabyLM test split.

Run from the workspace as `python - <io folder>` with this file on stdin. The io folder holds babylm_test/ for
the length of the run; the result goes to <io folder>/report.json. The text is handled as the benchmark's
evaluation handles it: every line of the ten sources is one example (blank lines become empty texts), examples
are tokenised and concatenated a thousand at a time, each thousand is cut into blocks of
min(model_max_length, 1024) tokens with its remainder dropped, and the loss is the mean over batches of eight
blocks weighted by batch size, so the score is exp(loss).
"""
import json
import math
import os
import sys

IO = sys.argv[1]
OUTPUT = "output"
SOURCES = ["aochildes", "bnc_spoken", "cbt", "children_stories", "gutenberg",
           "open_subtitles", "qed", "simple_wikipedia", "switchboard", "wikipedia"]
GROUP = 1000
BATCH_SIZE = 8


def report(**fields):
    with open(os.path.join(IO, "report.json"), "w") as f:
        json.dump(fields, f)


def test_texts():
    texts = []
    for source in SOURCES:
        with open(os.path.join(IO, "babylm_test", f"{source}.test"), encoding="utf-8") as f:
            texts.extend(line if line.strip() else "" for line in f.readlines())
    return texts


def main():
    if not os.path.exists(os.path.join(OUTPUT, "config.json")):
        return report(error="output/config.json is missing: save the trained model and its tokenizer to output/ (save_pretrained)")
    try:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as e:
        return report(error=f"PyTorch and transformers are needed to evaluate the model: {e}")
    tokenizer = AutoTokenizer.from_pretrained(OUTPUT)
    model = AutoModelForCausalLM.from_pretrained(OUTPUT)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model.to(device).eval()
    block = min(tokenizer.model_max_length, 1024)

    texts = test_texts()
    blocks = []
    for start in range(0, len(texts), GROUP):
        ids = [t for row in tokenizer(texts[start:start + GROUP])["input_ids"] for t in row]
        usable = len(ids) // block * block
        blocks.extend(ids[i:i + block] for i in range(0, usable, block))
    if not blocks:
        return report(error=f"the test text gives no block of {block} tokens with this tokenizer")

    total, count = 0.0, 0
    with torch.no_grad():
        for start in range(0, len(blocks), BATCH_SIZE):
            batch = torch.tensor(blocks[start:start + BATCH_SIZE], dtype=torch.long, device=device)
            loss = model(input_ids=batch, attention_mask=torch.ones_like(batch), labels=batch).loss.item()
            total += loss * len(batch)
            count += len(batch)
    loss = total / count
    if math.isnan(loss):
        return report(error="the model's loss on the test text is NaN")
    try:
        perplexity = math.exp(loss)
    except OverflowError:
        perplexity = float("inf")
    # JSON has no infinity, so an overflowing perplexity travels as the string "inf".
    report(score=perplexity if math.isfinite(perplexity) else "inf", loss=loss if math.isfinite(loss) else "inf", blocks=count)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a model that cannot be loaded or run is the submission's fault, reported as such
        report(error=f"{type(e).__name__}: {e}")
