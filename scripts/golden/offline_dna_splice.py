#!/usr/bin/python3
"""Golden values for test/prepare/dna-splice.test.ts, from R's own copy of the data and scikit-learn.

R (Debian's r-cran-mlbench) decodes the source's 180 indicator columns into the 60-letter windows
by its own code here (A = 100, C = 010, G = 001, T = 000, StatLog's encoding); the harness checks
that train plus the answers hold exactly the distinct windows with a single label, and prints the
class counts and two scores by sklearn.metrics.log_loss: the uniform sample submission, and a
rule (GT right after the middle: 0.6 EI; AG right before it: 0.6 IE; else 0.8 N; the rest split
evenly).

Usage: /usr/bin/python3 scripts/golden/offline_dna_splice.py <data-dir>   (after
`mlebench prepare -c dna-splice --data-dir <data-dir>`)
"""
import io
import os
import subprocess
import sys

import numpy as np
import pandas as pd
from sklearn.metrics import log_loss

R_PROGRAM = r"""
suppressMessages(library(mlbench)); data(DNA)
bits <- sapply(DNA[, 1:180], function(f) as.integer(as.character(f)))
code <- c("100" = "A", "010" = "C", "001" = "G", "000" = "T")
seq <- apply(bits, 1, function(b) paste(code[sapply(0:59, function(p) paste(b[3 * p + 1:3], collapse = ""))], collapse = ""))
write.csv(data.frame(sequence = seq, class = toupper(as.character(DNA$Class))), stdout(), row.names = FALSE)
"""


def main(data_dir):
    source = pd.read_csv(io.StringIO(subprocess.run(["Rscript", "--vanilla", "-e", R_PROGRAM], check=True, capture_output=True, text=True).stdout))
    labels = source.groupby("sequence")["class"].agg(lambda c: sorted(set(c)))
    single = {s: c[0] for s, c in labels.items() if len(c) == 1}
    print(f"source: {len(source)} records, {len(labels)} distinct windows, {len(labels) - len(single)} with two labels")
    prepared = os.path.join(data_dir, "dna-splice", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"))
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv")).set_index("id").loc[test.id]
    classes = ["EI", "IE", "N"]
    test_class = np.array(classes)[answers[classes].to_numpy().argmax(axis=1)]
    published = dict(zip(train.sequence, train["class"])) | dict(zip(test.sequence, test_class))
    print(f"published: {len(train)} + {len(test)} windows; equal to R's single-label windows: {published == single}")
    print("train classes:", train["class"].value_counts().sort_index().to_dict(), "test classes:", pd.Series(test_class).value_counts().sort_index().to_dict())
    y = answers[classes].to_numpy().argmax(axis=1)
    print(f"uniform: {log_loss(y, np.full((len(test), 3), 1 / 3), labels=[0, 1, 2])!r}")
    p = np.full((len(test), 3), 0.1)
    gt = test.sequence.str[30:32] == "GT"
    ag = test.sequence.str[28:30] == "AG"
    p[gt & ~ag] = [0.6, 0.2, 0.2]
    p[ag & ~gt] = [0.2, 0.6, 0.2]
    p[~gt & ~ag] = [0.1, 0.1, 0.8]
    p[gt & ag] = [0.4, 0.4, 0.2]
    print(f"rule: {log_loss(y, p, labels=[0, 1, 2])!r}")


if __name__ == "__main__":
    main(sys.argv[1])
