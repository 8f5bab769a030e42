"""What every grader oracle module gets: a folder to write into, a seeded RandomState and the
independent scoring helpers. Scores are recorded rounded to 5 decimals, as upstream reports them."""
import json
import os
import shutil
import zlib

import numpy as np
import pandas as pd

EPS = np.finfo(np.float64).eps


class Golden:
    def __init__(self, root, cid):
        self.cid = cid
        self.dir = os.path.join(root, cid)
        # Everything is rewritten but what upstream/oracle.py writes, which it rewrites itself.
        os.makedirs(self.dir, exist_ok=True)
        for name in os.listdir(self.dir):
            if name not in ("expected.json", "oracle.json"):
                path = os.path.join(self.dir, name)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        # Seeded per competition, so adding or changing one module never changes another's data.
        self.rng = np.random.RandomState(zlib.crc32(cid.encode()))
        self.expected = {}

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, df, name):
        """A CSV as pandas writes it (index=False)."""
        df.to_csv(self.path(name), index=False)
        return self.path(name)

    def write_text(self, text, name):
        """A file with exactly these contents (for malformed submissions, JSONL answers, ...)."""
        with open(self.path(name), "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return self.path(name)

    def read(self, name):
        return pd.read_csv(self.path(name), float_precision="round_trip")

    def leaderboard(self, scores):
        self.write(pd.DataFrame({"teamName": ["team%d" % i for i in range(len(scores))], "score": scores}), "leaderboard.csv")

    def record(self, name, score):
        """Expected score of submission `name`.csv (or its file), None when it must be invalid, "NaN"
        for a valid submission whose score is NaN (JSON has no NaN)."""
        if score is not None and np.isnan(score):
            self.expected[name] = "NaN"
        else:
            self.expected[name] = None if score is None else round(float(score), 5)

    def hex_ids(self, n, width):
        return ["".join(self.rng.choice(list("0123456789abcdef"), width)) for _ in range(n)]

    def log_loss_np(self, y_true_onehot, y_pred):
        """Log loss by formula: clip to float64 epsilon, no renormalisation (scikit-learn >= 1.5's behaviour)."""
        p = np.clip(np.asarray(y_pred, dtype=float), EPS, 1 - EPS)
        return float(-np.mean(np.sum(y_true_onehot * np.log(p), axis=1)))

    def finish(self):
        with open(self.path("independent.json"), "w") as f:
            json.dump(self.expected, f, indent=2, sort_keys=True)
            f.write("\n")
