"""Shared by the herbarium (2020-2022) and iNaturalist 2019 oracles: synthetic COCO-style
metadata, and the per-category train/test split their preparers have in common."""
import os
import random

import numpy as np
from sklearn.model_selection import train_test_split

# Category sizes that reach every branch: a lone sample, 2-4 samples (the tail rule), and larger
# groups that go through train_test_split.
SIZES = [1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 16, 23, 1, 3, 8, 5, 2, 11, 4, 31]

# Plant names with the characters Kaggle's metadata carries: accents, apostrophes, quotes, an
# en dash, a backslash and a slash.
GENERA = ["Aa", "Abies", "Acacia", "Achillea", "Bolívar", "Cañaveralia", "Dœllingeria", "Erica",
          "Ficus", "Gaultheria", "Hieracium", "Ilex", "Juncus", "Kalmia"]
EPITHETS = ["calceata", "amabilis", "o'brienii", "\"nova\"", "müelleri", "alba–rubra", "x\\y",
            "sp. 1/2", "tenuis", "grandiflora"]
FAMILIES = ["Orchidaceae", "Pinaceae", "Fabaceae", "Asteraceae", "Ericaceae", "Moraceae"]


def fake_jpg(path, tag):
    """A few bytes standing in for a herbarium sheet: only which file lands where matters."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 fake jpeg " + tag.encode() + b"\xff\xd9")


def category_labels(rs, n_categories, spread, sizes=SIZES):
    """Category ids (sparse, some above 100 and 10000) and one label per sample, interleaved."""
    ids = sorted(int(v) for v in rs.choice(spread, size=n_categories, replace=False))
    ids[0] = 0
    labels = []
    for cid, size in zip(ids, (sizes * 3)[:n_categories]):
        labels += [cid] * size
    order = rs.permutation(len(labels))
    return ids, [labels[i] for i in order]


def species(rs):
    return "%s %s" % (GENERA[rs.randint(len(GENERA))], EPITHETS[rs.randint(len(EPITHETS))])


def sub(cid):
    return "%03d/%02d" % (cid // 100, cid % 100)


def group_by_category(annotations, images, image_key):
    """Samples per category id, in order of first appearance, as upstream collects them."""
    groups = {}
    for annotation, image in zip(annotations, images):
        assert annotation["image_id"] == image[image_key]
        groups.setdefault(annotation["category_id"], []).append({"annotation": annotation, "image": image})
    return groups


def split_groups(groups, test_size, tail_rule):
    """Per category: a single sample stays in train; 2-4 give their last samples to test (when
    tail_rule); otherwise sklearn's train_test_split with random_state 0."""
    train, test = {}, {}
    for cid, items in groups.items():
        n = len(items)
        if tail_rule and n == 1:
            tr, te = items, []
        elif tail_rule and n < 5:
            k = max(1, int(n * test_size))
            tr, te = items[:-k], items[-k:]
        else:
            tr, te = train_test_split(items, test_size=test_size, random_state=0)
        train[cid], test[cid] = tr, te
    return train, test


def shuffled(test):
    """Test samples flattened category by category, then shuffled by random.Random(0)."""
    flat = [item for items in test.values() for item in items]
    random.Random(0).shuffle(flat)
    return flat


def rng(seed):
    return np.random.RandomState(seed)
