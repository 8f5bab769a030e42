"""Predict the subject area of arXiv papers in the ogbn-arxiv citation graph and write predictions for the test papers.

A first attempt: a two-layer perceptron on each paper's 128 text features, ignoring the citation edges.
"""
import os

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.join("networks", "ogbn_arxiv")
EPOCHS = 4
BATCH_SIZE = 1024
CLASSES = 40
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def read(*parts):
    return pd.read_csv(os.path.join(ROOT, *parts), header=None).values


class MLP(nn.Module):
    def __init__(self, features, hidden, classes, dropout=0.0):
        super().__init__()
        self.hidden = nn.Linear(features, hidden)
        self.norm = nn.BatchNorm1d(hidden)
        self.out = nn.Linear(hidden, classes)
        self.dropout = dropout

    def forward(self, x):
        x = F.relu(self.norm(self.hidden(x)))
        x = F.dropout(x, p=self.dropout, training=self.training)
        return self.out(x)


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x.to(DEVICE)).argmax(1).cpu() == y).float().mean().item()


def main():
    torch.manual_seed(0)
    features = torch.tensor(read("raw", "node-feat.csv.gz"), dtype=torch.float32)
    # Test papers carry the label -1 here: their subjects are what is to be predicted.
    labels = torch.tensor(read("raw", "node-label.csv.gz")[:, 0], dtype=torch.long)
    train_idx = torch.tensor(read("split", "time", "train.csv.gz")[:, 0], dtype=torch.long)
    valid_idx = torch.tensor(read("split", "time", "valid.csv.gz")[:, 0], dtype=torch.long)
    test_idx = torch.tensor(read("split", "time", "test.csv.gz")[:, 0], dtype=torch.long)

    model = MLP(features.shape[1], hidden=16, classes=CLASSES).to(DEVICE)
    optimizer = torch.optim.Adam(model.parameters(), lr=1.0)
    for epoch in range(EPOCHS):
        model.train()
        order = train_idx[torch.randperm(len(train_idx))]
        for start in range(0, len(order), BATCH_SIZE):
            batch = order[start:start + BATCH_SIZE]
            if len(batch) < 2:
                continue  # batch normalisation needs two examples
            optimizer.zero_grad()
            loss = F.cross_entropy(model(features[batch].to(DEVICE)), labels[batch].to(DEVICE))
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch + 1}/{EPOCHS}: train {accuracy(model, features[train_idx], labels[train_idx]):.4f}, "
              f"valid {accuracy(model, features[valid_idx], labels[valid_idx]):.4f}")

    model.eval()
    with torch.no_grad():
        predicted = model(features[test_idx].to(DEVICE)).argmax(1).cpu().numpy()
    # One row per test paper, in the order of split/time/test.csv.gz.
    pd.DataFrame(predicted.reshape(-1, 1)).to_csv("submission.csv", index=False)


if __name__ == "__main__":
    main()
