#!/usr/bin/python3
"""Golden values for test/prepare/wordnet-senses.test.ts, from NLTK's own WordNet reader.

The preparer parses WordNet's data.noun itself; this harness labels the prepared rows again with
NLTK (python3-nltk, reading the same /usr/share/wordnet files) and scikit-learn, so the test's
numbers do not share the preparer's reading of the database:
  - every published row is matched to the NLTK synset(s) with exactly its lemmas; the labels the
    preparer wrote must equal the categories NLTK finds among the synset and its hypernym and
    instance-hypernym closure (rows whose lemma list names several synsets with different
    labels are counted, not judged);
  - per-column label sums of train and of the answers;
  - the mean column-wise ROC AUC (sklearn.metrics.roc_auc_score) of a simple submission: for
    every label the same score, the number of words in the gloss.

NLTK's reader needs WordNet's `lexnames` file, which Debian's wordnet-base does not ship; it is
written (the 45 standard lexicographer file names) into a temporary copy of the folder.

Usage: /usr/bin/python3 scripts/golden/offline_wordnet_senses.py <data-dir>   (after
`mlebench prepare -c wordnet-senses --data-dir <data-dir>`)
"""
import collections
import os
import sys
import tempfile
import warnings

import pandas as pd
from sklearn.metrics import roc_auc_score

warnings.filterwarnings("ignore")
from nltk.corpus.reader.wordnet import WordNetCorpusReader  # noqa: E402

LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body noun.cognition "
    "noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive noun.object noun.person "
    "noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation noun.shape noun.state "
    "noun.substance noun.time verb.body verb.change verb.cognition verb.communication verb.competition verb.consumption "
    "verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative "
    "verb.weather adj.ppl"
).split()
POS_NUMBER = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
# The category synsets by NLTK name.
CATEGORIES = {
    "person": "person.n.01", "animal": "animal.n.01", "plant": "plant.n.02", "organism": "organism.n.01",
    "artifact": "artifact.n.01", "device": "device.n.01", "food": "food.n.01", "location": "location.n.01",
    "act": "act.n.02", "event": "event.n.01", "attribute": "attribute.n.02", "communication": "communication.n.02",
    "cognition": "cognition.n.01", "matter": "matter.n.03", "body_part": "body_part.n.01", "group": "group.n.01",
    "state": "state.n.02", "measure": "measure.n.02",
}


def reader():
    folder = tempfile.mkdtemp(prefix="wordnet-")
    for name in os.listdir("/usr/share/wordnet"):
        os.symlink(os.path.join("/usr/share/wordnet", name), os.path.join(folder, name))
    with open(os.path.join(folder, "lexnames"), "w") as f:
        for i, name in enumerate(LEXNAMES):
            f.write(f"{i:02d}\t{name}\t{POS_NUMBER[name.split('.')[0]]}\n")
    return WordNetCorpusReader(folder, None)


def main(data_dir):
    wn = reader()
    cats = {name: wn.synset(key) for name, key in CATEGORIES.items()}
    for name, s in cats.items():
        print(f"{name}: {s.name()} offset {s.offset():08d} '{s.lemma_names()[0]}'")
    by_lemmas = collections.defaultdict(list)
    for s in wn.all_synsets("n"):
        by_lemmas["; ".join(l.replace("_", " ") for l in s.lemma_names())].append(s)

    def labels(s):
        closure = {s} | set(s.closure(lambda x: x.hypernyms() + x.instance_hypernyms()))
        return tuple(int(c in closure) for c in cats.values())

    prepared = os.path.join(data_dir, "wordnet-senses", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"))
    names = list(CATEGORIES)
    for label, frame in [("train", train), ("answers", test.merge(answers, on="id"))]:
        wrong = ambiguous = missing = 0
        for row in frame.itertuples(index=False):
            found = by_lemmas.get(row.lemmas, [])
            if not found:
                missing += 1
                continue
            options = {labels(s) for s in found}
            if len(options) > 1:
                ambiguous += 1
                continue
            if options.pop() != tuple(getattr(row, n) for n in names):
                wrong += 1
        print(f"{label}: {len(frame)} rows, {missing} without a synset, {ambiguous} ambiguous, {wrong} with other labels than NLTK's")
        print(f"{label} label sums: " + ", ".join(f"{n}: {int(frame[n].sum())}" for n in names))
    words = test.gloss.str.split().str.len().astype(float)
    merged = test[["id"]].assign(score=words).merge(answers, on="id")
    aucs = [roc_auc_score(merged[n], merged.score) for n in names]
    print(f"gloss-length submission: mean column-wise AUC {sum(aucs) / len(aucs)!r}")


if __name__ == "__main__":
    main(sys.argv[1])
