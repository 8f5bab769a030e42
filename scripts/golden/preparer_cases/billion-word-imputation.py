"""billion-word-imputation: synthetic raw files and upstream's preparation steps.

Kaggle's train_v2.txt.zip holds train_v2.txt, one tokenised English sentence a line (punctuation
split off as its own word). The fixture's sentences include what the split has to get right:
one- and two-word lines (never test), quotes (doubled in test), tabs, runs of spaces and Unicode
spaces (Python's split() counts them, strip() removes them), CRLF and lone CR line ends (Python's
text mode turns both into "\\n"), a byte order mark, and a last line without a line break."""
import os
import shutil
import zipfile

import numpy as np

from _common import write_zip_members

N_LINES = 4200
VOCAB = ["The", "the", "of", "and", "to", "a", "in", "\"", "said", ",", ".", "'s", "--", "(", ")", "?", "U.S.", "$", "1.5",
         "million", "percent", "naïve", "café", "Zürich", "—", "''", "``", "it", "was", "not", ";", ":", "don't", "é"]
SPACES = [" "] * 12 + ["  ", "\t", "\u00a0", "\u3000", "\x85", "\x1f", " \t "]
ENDS = ["\n"] * 30 + ["\r\n", "\r"]


def sentence(rs):
    r = rs.random_sample()
    n = 1 if r < 0.03 else 2 if r < 0.08 else rs.randint(3, 14)
    words = [VOCAB[i] for i in rs.randint(0, len(VOCAB), size=n)]
    out = words[0]
    for w in words[1:]:
        out += SPACES[rs.randint(0, len(SPACES))] + w
    if rs.random_sample() < 0.05:
        out = " " + out + "\t "
    return out


def make_raw(raw):
    rs = np.random.RandomState(31)
    lines = []
    for k in range(N_LINES):
        lines.append(("" if k % 997 == 13 else sentence(rs)) + ENDS[rs.randint(0, len(ENDS))])
    text = "\ufeff" + "".join(lines) + sentence(rs)
    write_zip_members(os.path.join(raw, "train_v2.txt.zip"), {"train_v2.txt": text.encode("utf-8")})


def prepare(raw, public, private):
    rng = np.random.RandomState(0)
    with zipfile.ZipFile(os.path.join(raw, "train_v2.txt.zip")) as z:
        z.extractall(raw)
    total_lines = 30301028
    with open(os.path.join(raw, "train_v2.txt")) as src, \
            open(os.path.join(public, "train_v2.txt"), "w") as train, \
            open(os.path.join(public, "test_v2.txt"), "w") as test, \
            open(os.path.join(private, "test.csv"), "w") as answers:
        test.write('"id","sentence"\n')
        answers.write('"id","sentence"\n')
        seen = held = 0
        for line in src:
            if rng.uniform() <= 0.01 and len(line.strip().split()) > 2:
                s = line.strip().replace('"', '""')
                words = s.split()
                k = rng.randint(1, len(words) - 1)
                answers.write('%d,"%s"\n' % (held, s))
                test.write('%d,"%s"\n' % (held, " ".join(words[:k] + words[k + 1:])))
                held += 1
            else:
                train.write(line)
            seen += 1
            if seen >= total_lines:
                break
    shutil.copy(os.path.join(public, "test_v2.txt"), os.path.join(private, "sample_submission.csv"))
    for name in ["train_v2.txt", "test_v2.txt"]:
        with zipfile.ZipFile(os.path.join(public, name + ".zip"), "w", zipfile.ZIP_DEFLATED) as z:
            z.write(os.path.join(public, name), arcname=name)
        os.remove(os.path.join(public, name))
