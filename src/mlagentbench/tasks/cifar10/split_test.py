"""Split CIFAR-10's test batch into a label-free copy for workspaces and an answers file.

Usage: split_test.py <cifar-10-batches-py folder> <public folder> <answers csv>
The public copy keeps only the images (b"data") and the batch name: the file names are dropped too,
because CIFAR-10 names each image after its class.
"""
import os
import pickle
import sys

import numpy as np


def main(source, public_dir, answers):
    path = os.path.join(source, "test_batch")
    with open(path, "rb") as f:
        batch = pickle.load(f, encoding="bytes")
    data = np.asarray(batch.get(b"data"))
    labels = batch.get(b"labels")
    if data.ndim != 2 or data.shape[1] != 3072 or labels is None or len(labels) != data.shape[0]:
        sys.exit(f"{path}: expected b'data' of shape (n, 3072) and n b'labels'; found data {data.shape} and "
                 f"{'no' if labels is None else len(labels)} labels")
    public = {b"batch_label": batch.get(b"batch_label", b"testing batch 1 of 1"), b"data": data}
    with open(os.path.join(public_dir, "test_batch"), "wb") as f:
        pickle.dump(public, f, protocol=2)
    with open(answers, "w") as f:
        f.write("idx,label\n")
        for i, label in enumerate(labels):
            f.write(f"{i},{int(label)}\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
