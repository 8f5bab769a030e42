"""AI4Code: synthetic raw files and upstream's preparation steps.

Upstream holds out whole ancestry groups until exactly 20,000 notebooks are in the test split.
The fixture has far fewer notebooks, so with that size every group lands in the test split; the
split with a smaller size (where groups start spilling over into train) is recorded separately by
running this module directly: `python3 AI4Code.py` writes expected-test-size-<N>.json."""
import json
import os
import shutil
import sys
import tempfile

import numpy as np
import pandas as pd

from _freetext import WORDS, text

TEST_SIZE = 20000
SMALL_TEST_SIZE = 61
N_NOTEBOOKS = 170


def hex_string(rs, width):
    return "".join("0123456789abcdef"[d] for d in rs.randint(0, 16, size=width))


def notebook_ids(rs, n):
    """14-digit hex ids as Kaggle's; one all digits, one that pandas would read as a float on its own."""
    out = []
    while len(out) < n:
        k = len(out)
        if k == 9:
            s = "".join(str(d) for d in rs.randint(0, 10, size=14))
        elif k == 23:
            s = "12e" + "".join(str(d) for d in rs.randint(0, 10, size=11))
        else:
            s = hex_string(rs, 14)
        if s not in out:
            out.append(s)
    return out


def notebook(rs):
    """One notebook as Kaggle ships it: code cells in order, then the markdown cells shuffled; and its true order."""
    n_code = rs.randint(0, 7)
    n_md = rs.randint(0 if n_code else 1, 5)
    cells = []
    while len(cells) < n_code + n_md:
        c = hex_string(rs, 8)
        if c not in cells:
            cells.append(c)
    code, md = cells[:n_code], cells[n_code:]
    # The true order interleaves the markdown cells between the code cells.
    order = list(code)
    for c in md:
        order.insert(rs.randint(0, len(order) + 1), c)
    shipped = code + [md[i] for i in rs.permutation(len(md))]
    kinds = {c: ("code" if c in code else "markdown") for c in shipped}
    source = {}
    for c in shipped:
        if kinds[c] == "code":
            source[c] = "import numpy as np\nx = %d\nprint(\"%s\", x)" % (rs.randint(0, 99), WORDS[rs.randint(0, len(WORDS))])
        else:
            source[c] = "# " + text(rs, 2, 12)
    doc = {"cell_type": kinds, "source": source}
    style = rs.randint(0, 3)
    if style == 0:
        body = json.dumps(doc, separators=(",", ":"))
    elif style == 1:
        body = json.dumps(doc, ensure_ascii=False)
    else:
        body = json.dumps(doc, indent=1)
    return body, order


def make_raw(raw):
    rs = np.random.RandomState(4)
    ids = notebook_ids(rs, N_NOTEBOOKS)
    rows = []
    i = 0
    while i < len(ids):
        size = 1 if rs.random_sample() < 0.5 else rs.randint(2, 7)
        group = ids[i:i + size]
        ancestor = hex_string(rs, 8)
        for j, nid in enumerate(group):
            parent = group[rs.randint(0, j)] if j and rs.random_sample() < 0.4 else None
            rows.append({"id": nid, "ancestor_id": ancestor, "parent_id": parent})
        i += size
    # Kaggle's file is not grouped by ancestor.
    ancestors = pd.DataFrame(rows).iloc[rs.permutation(len(rows))]
    ancestors.to_csv(os.path.join(raw, "train_ancestors.csv"), index=False)

    os.makedirs(os.path.join(raw, "train"))
    orders = []
    for nid in ids:
        body, order = notebook(rs)
        with open(os.path.join(raw, "train", nid + ".json"), "w", encoding="utf-8") as f:
            f.write(body)
        orders.append({"id": nid, "cell_order": " ".join(order)})
    pd.DataFrame(orders).iloc[rs.permutation(len(orders))].to_csv(os.path.join(raw, "train_orders.csv"), index=False)


def split_on_ancestors(ancestors, test_size):
    """Groups in order of first appearance; a whole group goes to test while it still fits."""
    groups = {}
    for nid, anc in zip(ancestors["id"], ancestors["ancestor_id"]):
        groups.setdefault(anc, []).append(nid)
    train, test = [], []
    for members in groups.values():
        if len(test) + len(members) <= test_size:
            test.extend(members)
        else:
            train.extend(members)
    return train, test


def prepare_sized(raw, public, private, test_size):
    ancestors = pd.read_csv(os.path.join(raw, "train_ancestors.csv"), float_precision="round_trip")
    ancestors = ancestors.sample(frac=1, random_state=0).reset_index(drop=True)
    train_ids, test_ids = split_on_ancestors(ancestors, test_size)
    for folder, chosen in [("train", train_ids), ("test", test_ids)]:
        os.makedirs(os.path.join(public, folder), exist_ok=True)
        for nid in chosen:
            shutil.copy(os.path.join(raw, "train", nid + ".json"), os.path.join(public, folder, nid + ".json"))
    orders = pd.read_csv(os.path.join(raw, "train_orders.csv"), float_precision="round_trip")
    orders[orders["id"].isin(train_ids)].to_csv(os.path.join(public, "train_orders.csv"), index=False)
    test_orders = orders[orders["id"].isin(test_ids)]
    test_orders.to_csv(os.path.join(private, "test_orders.csv"), index=False)
    ancestors[~ancestors["id"].isin(test_ids)].to_csv(os.path.join(public, "train_ancestors.csv"), index=False)
    sample = []
    for nid in test_orders["id"]:
        with open(os.path.join(public, "test", nid + ".json")) as f:
            kinds = json.load(f)["cell_type"]
        sample.append({"id": nid, "cell_order": " ".join(kinds.keys())})
    pd.DataFrame(sample).to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    prepare_sized(raw, public, private, TEST_SIZE)


def write_small_split():
    """md5s of the outputs with SMALL_TEST_SIZE, from the fixture's raw files (run preparers.py first)."""
    from _common import listing
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "test", "fixtures", "preparers", "AI4Code")
    with tempfile.TemporaryDirectory() as tmp:
        public, private = os.path.join(tmp, "public"), os.path.join(tmp, "private")
        os.makedirs(public)
        os.makedirs(private)
        prepare_sized(os.path.join(fixture, "raw"), public, private, SMALL_TEST_SIZE)
        md5 = dict(sorted({**listing("public", public), **listing("private", private)}.items()))
    with open(os.path.join(fixture, "expected-test-size-%d.json" % SMALL_TEST_SIZE), "w") as f:
        json.dump({"pandas": pd.__version__, "test_size": SMALL_TEST_SIZE, "md5": md5}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    write_small_split()
