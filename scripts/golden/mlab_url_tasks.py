"""Synthetic stand-ins for the downloads of the URL research tasks, with golden scores.

Writes into test/fixtures/mlagentbench/url-tasks/ (run from the repository root with /usr/bin/python3):
- cifar-10-python.tar.gz, aclImdb_v1.tar.gz, arxiv.zip, CLRS30_v1.0.0.tar.gz, babylm_data.zip,
  wikitext-103-v1.zip, tokenizer.model: tiny stand-ins with the real layouts and file names (the CLRS splits and
  the model file hold placeholder bytes: only their place in the layout is tested);
- cifar10_submission.csv, imdb_submission.csv, ogbn_arxiv_submission.csv: submissions as the starters write them;
- golden.json: the test labels in the order the tasks publish them, and each submission's accuracy computed
  the way the upstream evaluators compute it (pandas .loc[idx].argmax(), elementwise equality).
Everything is seeded and archive timestamps are fixed, so a rerun reproduces the same bytes.
"""
import gzip
import hashlib
import io
import json
import os
import pickle
import tarfile
import zipfile

import numpy as np
import pandas as pd

OUT = os.path.join("test", "fixtures", "mlagentbench", "url-tasks")
FIXED_TIME = 1_600_000_000


def add_bytes(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = FIXED_TIME
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def write_tar_gz(path, members):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data in members:
            add_bytes(tar, name, data)
    with open(path, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as gz:
            gz.write(raw.getvalue())


def write_zip(path, members):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(2020, 9, 13, 12, 26, 40))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def gz(text):
    return gzip.compress(text.encode(), mtime=0)


def upstream_probability_accuracy(submission_path, index_col, labels):
    submission = pd.read_csv(submission_path, index_col=index_col)
    correct = 0
    for idx, y in enumerate(labels):
        correct += int(submission.loc[idx].argmax() == y)
    return correct / len(labels)


def cifar10(rng):
    members = []
    batch_names = [f"data_batch_{i}" for i in range(1, 6)]
    for i, name in enumerate(batch_names):
        batch = {
            b"batch_label": f"training batch {i + 1} of 5".encode(),
            b"labels": [int(v) for v in rng.randint(0, 10, 6)],
            b"data": rng.randint(0, 256, (6, 3072)).astype(np.uint8),
            b"filenames": [f"image_{i}_{j}.png".encode() for j in range(6)],
        }
        members.append((f"cifar-10-batches-py/{name}", pickle.dumps(batch, protocol=2)))
    test_labels = [int(v) for v in rng.randint(0, 10, 12)]
    test = {
        b"batch_label": b"testing batch 1 of 1",
        b"labels": test_labels,
        b"data": rng.randint(0, 256, (12, 3072)).astype(np.uint8),
        b"filenames": [f"class_{y}_s_{j:06d}.png".encode() for j, y in enumerate(test_labels)],
    }
    members.append(("cifar-10-batches-py/test_batch", pickle.dumps(test, protocol=2)))
    names = [b"airplane", b"automobile", b"bird", b"cat", b"deer", b"dog", b"frog", b"horse", b"ship", b"truck"]
    meta = {b"num_cases_per_batch": 6, b"label_names": names, b"num_vis": 3072}
    members.append(("cifar-10-batches-py/batches.meta", pickle.dumps(meta, protocol=2)))
    members.append(("cifar-10-batches-py/readme.html", b"<html>synthetic</html>\n"))
    write_tar_gz(os.path.join(OUT, "cifar-10-python.tar.gz"), members)

    probabilities = rng.dirichlet(np.ones(10), 12)
    probabilities[3] = 0.1  # a tie everywhere: the first class wins, as with numpy's argmax
    probabilities[5] = np.eye(10)[test_labels[5]]
    path = os.path.join(OUT, "cifar10_submission.csv")
    pd.DataFrame(probabilities, columns=list(range(10))).to_csv(path)
    return {"test_labels": test_labels, "accuracy": upstream_probability_accuracy(path, 0, test_labels)}


REVIEW_WORDS = ["great", "awful", "plot", "actor", "boring", "loved", "film", "scene", "music", "waste", "brilliant", "dull"]


def review(rng, n):
    words = [REVIEW_WORDS[i] for i in rng.randint(0, len(REVIEW_WORDS), n)]
    # Commas, quotes, HTML breaks and a non-ASCII letter, as real reviews have.
    return " ".join(words) + ', "really" <br /><br />caf\u00e9.'


def imdb(rng):
    members = [("aclImdb/README", b"synthetic\n"), ("aclImdb/imdb.vocab", "\n".join(REVIEW_WORDS).encode())]
    test = []
    for split, count in (("train", 6), ("test", 5)):
        for folder, label in (("neg", 0), ("pos", 1)):
            for i in range(count):
                rating = int(rng.randint(1, 5)) if label == 0 else int(rng.randint(7, 11))
                name = f"{i}_{rating}.txt"
                text = review(rng, 5 + i)
                members.append((f"aclImdb/{split}/{folder}/{name}", text.encode()))
                if split == "test":
                    test.append((hashlib.sha256(f"test/{folder}/{name}".encode()).hexdigest(), label))
    members.append(("aclImdb/train/unsup/0_0.txt", b"unlabelled review"))
    write_tar_gz(os.path.join(OUT, "aclImdb_v1.tar.gz"), members)

    labels = [label for _, label in sorted(test)]
    probabilities = rng.dirichlet(np.ones(2), len(labels))
    path = os.path.join(OUT, "imdb_submission.csv")
    pd.DataFrame(probabilities, columns=[0, 1]).to_csv(path, index_label="idx")
    return {"test_labels": labels, "accuracy": upstream_probability_accuracy(path, "idx", labels)}


def ogbn_arxiv(rng):
    nodes, features = 30, 8
    labels = rng.randint(0, 40, nodes)
    order = rng.permutation(nodes)
    train_idx, valid_idx, test_idx = order[:18], order[18:24], order[24:]
    edges = rng.randint(0, nodes, (60, 2))
    lines = lambda rows: "".join(",".join(str(v) for v in np.atleast_1d(r)) + "\n" for r in rows)
    members = [
        ("arxiv/RELEASE_v1.txt", b"synthetic\n"),
        ("arxiv/raw/node-feat.csv.gz", gz("".join(",".join(f"{v:.6f}" for v in row) + "\n" for row in rng.randn(nodes, features)))),
        ("arxiv/raw/node-label.csv.gz", gz(lines(labels))),
        ("arxiv/raw/edge.csv.gz", gz(lines(edges))),
        ("arxiv/raw/node_year.csv.gz", gz(lines(rng.randint(1990, 2021, nodes)))),
        ("arxiv/raw/num-node-list.csv.gz", gz(f"{nodes}\n")),
        ("arxiv/raw/num-edge-list.csv.gz", gz(f"{len(edges)}\n")),
        ("arxiv/split/time/train.csv.gz", gz(lines(train_idx))),
        ("arxiv/split/time/valid.csv.gz", gz(lines(valid_idx))),
        ("arxiv/split/time/test.csv.gz", gz(lines(test_idx))),
        ("arxiv/mapping/nodeidx2paperid.csv.gz", gz("node idx,paper id\n" + "".join(f"{i},{1000 + i}\n" for i in range(nodes)))),
    ]
    write_zip(os.path.join(OUT, "arxiv.zip"), members)

    y_true = labels[test_idx].reshape(-1, 1)
    predicted = y_true.copy()
    predicted[::2, 0] = (predicted[::2, 0] + 1) % 40
    path = os.path.join(OUT, "ogbn_arxiv_submission.csv")
    pd.DataFrame(predicted).to_csv(path, index=False)
    submission = np.array(pd.read_csv(path))
    accuracy = float(np.mean(submission == y_true))
    return {"test_labels": [int(v) for v in y_true[:, 0]], "test_nodes": [int(v) for v in test_idx], "accuracy": accuracy}


def clrs():
    members = []
    for algorithm in ("floyd_warshall", "bfs"):
        for split in ("train", "val", "test"):
            base = f"clrs_dataset/{algorithm}_{split}/1.0.0"
            members.append((f"{base}/dataset_info.json", json.dumps({"name": f"{algorithm}_{split}"}).encode()))
            members.append((f"{base}/features.json", b"{}"))
            members.append((f"{base}/clrs_dataset-{split}.tfrecord-00000-of-00001", f"{algorithm} {split} records".encode()))
    write_tar_gz(os.path.join(OUT, "CLRS30_v1.0.0.tar.gz"), members)


BABYLM_SOURCES = ["aochildes", "bnc_spoken", "cbt", "children_stories", "gutenberg",
                  "open_subtitles", "qed", "simple_wikipedia", "switchboard", "wikipedia"]


def babylm():
    members = [("__MACOSX/babylm_data/._babylm_10M", b"resource fork")]
    for folder, suffix in (("babylm_10M", "train"), ("babylm_100M", "train"), ("babylm_dev", "dev"), ("babylm_test", "test")):
        for source in BABYLM_SOURCES:
            members.append((f"babylm_data/{folder}/{source}.{suffix}", f"{source} {folder} line one\n\nline three\n".encode()))
    write_zip(os.path.join(OUT, "babylm_data.zip"), members)


def wikitext():
    members = [(f"wikitext-103/wiki.{split}.tokens", f" = {split} = \n\n some text @-@ here \n".encode()) for split in ("train", "valid", "test")]
    write_zip(os.path.join(OUT, "wikitext-103-v1.zip"), members)
    with open(os.path.join(OUT, "tokenizer.model"), "wb") as f:
        f.write(b"placeholder tokenizer")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.RandomState(20240601)
    golden = {"cifar10": cifar10(rng), "imdb": imdb(rng), "ogbn-arxiv": ogbn_arxiv(rng)}
    clrs()
    babylm()
    wikitext()
    with open(os.path.join(OUT, "golden.json"), "w") as f:
        json.dump(golden, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
