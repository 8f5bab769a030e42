"""Train a small GPT-2 language model from scratch on the 10M-word BabyLM corpus and save it to output/.

The evaluator loads output/ with transformers' AutoModelForCausalLM and AutoTokenizer, so save both there.
The tokenizer is GPT-2's, from the Hugging Face hub (or its local cache).
"""
import math
import os

import torch
from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel

DATA = "babylm_data"
SOURCES = ["aochildes", "bnc_spoken", "cbt", "children_stories", "gutenberg",
           "open_subtitles", "qed", "simple_wikipedia", "switchboard", "wikipedia"]
BLOCK_SIZE = 128
BATCH_SIZE = 16
EPOCHS = 1
OUTPUT = "output"


def read_split(folder, suffix):
    lines = []
    for source in SOURCES:
        with open(os.path.join(DATA, folder, f"{source}.{suffix}"), encoding="utf-8") as f:
            lines.extend(line for line in f if line.strip())
    return lines


def blocks(tokenizer, lines):
    """All lines tokenised, concatenated and cut into blocks of BLOCK_SIZE tokens (the remainder is dropped)."""
    ids = []
    for start in range(0, len(lines), 1000):
        for row in tokenizer(lines[start:start + 1000])["input_ids"]:
            ids.extend(row)
    usable = len(ids) // BLOCK_SIZE * BLOCK_SIZE
    return torch.tensor(ids[:usable], dtype=torch.long).view(-1, BLOCK_SIZE)


def mean_loss(model, data, device):
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for start in range(0, len(data), BATCH_SIZE):
            batch = data[start:start + BATCH_SIZE].to(device)
            total += model(input_ids=batch, labels=batch).loss.item() * len(batch)
            count += len(batch)
    return total / max(count, 1)


def main():
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained("gpt2")
    train = blocks(tokenizer, read_split("babylm_10M", "train"))
    dev = blocks(tokenizer, read_split("babylm_dev", "dev"))[:2000]
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=1024, n_embd=256, n_layer=4, n_head=4)
    model = GPT2LMHeadModel(config).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    for epoch in range(EPOCHS):
        model.train()
        order = torch.randperm(len(train))
        for step, start in enumerate(range(0, len(order), BATCH_SIZE)):
            batch = train[order[start:start + BATCH_SIZE]].to(device)
            loss = model(input_ids=batch, labels=batch).loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 500 == 0:
                print(f"epoch {epoch + 1} step {step}: loss {loss.item():.4f}")
        print(f"epoch {epoch + 1}: dev perplexity {math.exp(mean_loss(model, dev, device)):.2f}")
    os.makedirs(OUTPUT, exist_ok=True)
    model.save_pretrained(OUTPUT)
    tokenizer.save_pretrained(OUTPUT)


if __name__ == "__main__":
    main()
