"""Train a small convolutional network on CIFAR-10 and write class probabilities for the test images."""
import os
import pickle

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F

DATA = os.path.join("data", "cifar-10-batches-py")
EPOCHS = 5
BATCH_SIZE = 128
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load_batch(name):
    with open(os.path.join(DATA, name), "rb") as f:
        batch = pickle.load(f, encoding="bytes")
    # Each row is 1024 red, then 1024 green, then 1024 blue values of a 32x32 image.
    images = np.asarray(batch[b"data"], dtype=np.float32).reshape(-1, 3, 32, 32) / 255.0
    images = (images - 0.5) / 0.5
    labels = np.asarray(batch.get(b"labels", []), dtype=np.int64)
    return torch.from_numpy(images), torch.from_numpy(labels)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def accuracy(model, images, labels):
    model.eval()
    with torch.no_grad():
        predicted = torch.cat([model(images[i:i + 1000].to(DEVICE)).argmax(1).cpu() for i in range(0, len(images), 1000)])
    return (predicted == labels).float().mean().item()


def main():
    torch.manual_seed(0)
    parts = [load_batch(f"data_batch_{i}") for i in range(1, 6)]
    images = torch.cat([p[0] for p in parts])
    labels = torch.cat([p[1] for p in parts])
    # The last 10% of the training images are held out to check the model on images it has not seen.
    cut = int(len(images) * 0.9)
    train_x, train_y, valid_x, valid_y = images[:cut], labels[:cut], images[cut:], labels[cut:]

    model = Net().to(DEVICE)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(EPOCHS):
        model.train()
        order = torch.randperm(len(train_x))
        for start in range(0, len(order), BATCH_SIZE):
            batch = order[start:start + BATCH_SIZE]
            optimizer.zero_grad()
            loss = F.cross_entropy(model(train_x[batch].to(DEVICE)), train_y[batch].to(DEVICE))
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch + 1}/{EPOCHS}: train accuracy {accuracy(model, train_x, train_y):.4f}, "
              f"held-out accuracy {accuracy(model, valid_x, valid_y):.4f}")

    test_x, _ = load_batch("test_batch")
    model.eval()
    with torch.no_grad():
        probabilities = torch.cat([torch.softmax(model(test_x[i:i + 1000].to(DEVICE)), dim=1).cpu() for i in range(0, len(test_x), 1000)])
    # One row per test image, in file order, with the probability of each of the 10 classes.
    pd.DataFrame(probabilities.numpy(), columns=list(range(10))).to_csv("submission.csv")


if __name__ == "__main__":
    main()
