"""movie-review-sentiment-analysis-kernels-only: synthetic raw files and upstream's preparation steps."""
import os
import shutil
import zipfile

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_members

# Penn-Treebank-style tokens as in Kaggle's phrases, plus cells that stress a TSV round trip:
# commas (quoted only in the comma-separated answers), quotes mid-field (literal on read, quoted on
# write), digits-only phrases (the column stays text) and non-ASCII letters.
TOKENS = [
    "the", "film", "movie", "is", "a", "an", "of", "and", "to", "it", "'s", "n't", "good", "bad", "funny",
    "boring", ",", ".", "-LRB-", "-RRB-", "``", "''", "`", "--", "...", "!", "?", ";", ":", "Spielberg",
    "café", "naïve", "Almodóvar", "über-cool", "10", "1/2", "$", "&", "5", "half-baked", "it's", "R-rated",
    'so-called "comedy"', "ca", "wo", "well-made", "a+", "100%",
]

# Whole phrases that are awkward cells; "NA" and "nan" come back from read_csv as missing.
ODD_PHRASES = ['"Notorious" remake', " ", "NA", "nan", "007", "1.50", "2", "True", 'the "best" one', "Réalisme magique , éh ?"]


def movie_rows(n_sentences=40, seed=11):
    rs = np.random.RandomState(seed)
    rows, pid = [], 1
    for sid in range(1, n_sentences + 1):
        words = [TOKENS[k] for k in rs.randint(0, len(TOKENS), size=rs.randint(4, 16))]
        # A sentence and some of its sub-phrases, as in the parse-tree layout of the real file.
        spans = [(0, len(words))] + [tuple(sorted(rs.randint(0, len(words) + 1, size=2))) for _ in range(rs.randint(2, 9))]
        for a, b in spans:
            phrase = " ".join(words[a:b]) if b > a else words[a % len(words)]
            if rs.random_sample() < 0.1:
                phrase = ODD_PHRASES[rs.randint(0, len(ODD_PHRASES))]
            rows.append((pid, sid, phrase, int(rs.randint(0, 5))))
            pid += 1
    return rows


def make_raw(raw):
    # Kaggle's file is plain tab-separated text without quoting; written by hand to keep it so.
    lines = ["PhraseId\tSentenceId\tPhrase\tSentiment"] + ["%d\t%d\t%s\t%d" % r for r in movie_rows()]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    write_zip_members(os.path.join(raw, "train.tsv.zip"), {"train.tsv": data})


def prepare(raw, public, private):
    with zipfile.ZipFile(os.path.join(raw, "train.tsv.zip")) as z:
        z.extractall(raw)
    old_train = pd.read_csv(os.path.join(raw, "train.tsv"), sep="\t")
    new_train, answers = train_test_split(old_train, test_size=0.3, random_state=0)
    new_test = answers.drop(columns=["Sentiment"])
    sample = answers[["PhraseId", "Sentiment"]].copy()
    sample["Sentiment"] = 2
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train.tsv"), index=False, sep="\t")
    new_test.to_csv(os.path.join(public, "test.tsv"), index=False, sep="\t")
    sample.to_csv(os.path.join(public, "sampleSubmission.csv"), index=False)
    for name in ["train.tsv", "test.tsv"]:
        shutil.make_archive(os.path.join(public, name), "zip", public, name)
        os.remove(os.path.join(public, name))
