"""Classify IMDb movie reviews as negative (0) or positive (1) and write class probabilities for the test reviews.

A first attempt: the mean of learned word embeddings (a bag of words) fed to a linear layer.
"""
import collections
import re

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB_SIZE = 20000
EMBEDDING = 64
EPOCHS = 3
BATCH_SIZE = 64
TOKEN = re.compile(r"[a-z0-9']+")
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def tokens(text):
    return TOKEN.findall(text.replace("<br />", " ").lower())


def encode(texts, vocab):
    """Token ids of all texts, concatenated, with the offset at which each text starts (EmbeddingBag's input)."""
    ids, offsets = [], []
    for text in texts:
        offsets.append(len(ids))
        ids.extend(vocab.get(t, 1) for t in tokens(text))  # 1 stands for a word outside the vocabulary
    return torch.tensor(ids, dtype=torch.long), torch.tensor(offsets, dtype=torch.long)


class BagOfWords(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, EMBEDDING, mode="mean")
        self.out = nn.Linear(EMBEDDING, 2)

    def forward(self, ids, offsets):
        return self.out(self.embedding(ids, offsets))


def predict(model, texts, vocab):
    model.eval()
    parts = []
    with torch.no_grad():
        for start in range(0, len(texts), 1000):
            ids, offsets = encode(texts[start:start + 1000], vocab)
            parts.append(torch.softmax(model(ids.to(DEVICE), offsets.to(DEVICE)), dim=1).cpu())
    return torch.cat(parts).numpy()


def main():
    torch.manual_seed(0)
    train = pd.read_csv("data/train.csv")
    test = pd.read_csv("data/test.csv")
    train = train.sample(frac=1.0, random_state=0).reset_index(drop=True)
    # Hold out 10% of the training reviews to measure accuracy on reviews the model has not seen.
    cut = int(len(train) * 0.9)
    fit, held_out = train[:cut], train[cut:]

    counts = collections.Counter(t for text in fit.text for t in tokens(text))
    vocab = {word: i + 2 for i, (word, _) in enumerate(counts.most_common(VOCAB_SIZE))}  # 0 unused, 1 unknown
    model = BagOfWords(len(vocab) + 2).to(DEVICE)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    texts, labels = list(fit.text), torch.tensor(fit.label.values, dtype=torch.long)
    for epoch in range(EPOCHS):
        model.train()
        order = torch.randperm(len(texts))
        for start in range(0, len(order), BATCH_SIZE):
            batch = order[start:start + BATCH_SIZE].tolist()
            ids, offsets = encode([texts[i] for i in batch], vocab)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(ids.to(DEVICE), offsets.to(DEVICE)), labels[batch].to(DEVICE))
            loss.backward()
            optimizer.step()
        if len(held_out) > 0:
            accuracy = (predict(model, list(held_out.text), vocab).argmax(1) == held_out.label.values).mean()
            print(f"epoch {epoch + 1}/{EPOCHS}: held-out accuracy {accuracy:.4f}")

    probabilities = predict(model, list(test.text), vocab)
    submission = pd.DataFrame(probabilities, columns=[0, 1], index=test.idx.values)
    submission.to_csv("submission.csv", index_label="idx")


if __name__ == "__main__":
    main()
