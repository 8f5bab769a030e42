"""herbarium-2021-fgvc8: synthetic raw files and upstream's preparation steps."""
import json
import os
import shutil

import pandas as pd

from _herbarium import FAMILIES, category_labels, fake_jpg, group_by_category, rng, shuffled, species, split_groups, sub

INSTITUTIONS = ["Auckland War Memorial Museum T\u0101maki Paenga Hira", "Bishop Museum",
                "Naturalis Biodiversity Center", "New York Botanical Garden", "Queensland Herbarium"]
ORDERS = ["Pinales", "Asterales", "Fabales", "Ericales"]


def metadata(rs):
    cats, labels = category_labels(rs, 24, 64500)
    image_ids = [int(v) for v in rs.choice(2_500_000, size=len(labels), replace=False)]
    annotations, images = [], []
    for label, iid in zip(labels, image_ids):
        annotations.append({"category_id": label, "id": iid, "image_id": iid, "institution_id": int(rs.randint(len(INSTITUTIONS)))})
        images.append({"file_name": "images/%s/%d.jpg" % (sub(label), iid), "height": 1000, "id": iid,
                       "license": 0, "width": int(rs.randint(600, 700))})
    categories = [{"name": species(rs), "order": ORDERS[rs.randint(len(ORDERS))], "family": FAMILIES[rs.randint(len(FAMILIES))], "id": cid}
                  for cid in cats]
    return {
        "annotations": annotations,
        "categories": categories,
        "images": images,
        "info": {"contributor": "Riley, Kiat, Barbara, \"NYBG\" et al.", "date_created": "2021-03-01",
                 "description": "Herbarium 2021 \u2013 Half-Earth \U0001D465 FGVC8", "url": "https://github.com/visipedia/herbarium_comp",
                 "version": "1.0", "year": 2021},
        "institutions": [{"name": n, "id": i} for i, n in enumerate(INSTITUTIONS)],
        "licenses": [{"id": 0, "name": "Public Domain Dedication", "url": "https://creativecommons.org/publicdomain/zero/1.0/"}],
    }


def make_raw(raw):
    rs = rng(2021)
    meta = metadata(rs)
    train = os.path.join(raw, "train")
    os.makedirs(train)
    with open(os.path.join(train, "metadata.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
    for image in meta["images"]:
        fake_jpg(os.path.join(train, image["file_name"]), str(image["id"]))
    # Kaggle's unlabelled test folder and sample submission: shipped, never read.
    test = os.path.join(raw, "test")
    os.makedirs(test)
    with open(os.path.join(test, "metadata.json"), "w") as f:
        json.dump({"images": [{"file_name": "images/000/0.jpg", "id": 0}], "info": meta["info"], "licenses": meta["licenses"]}, f)
    fake_jpg(os.path.join(test, "images", "000", "0.jpg"), "kaggle test")
    pd.DataFrame({"Id": [0], "Predicted": [0]}).to_csv(os.path.join(raw, "sample_submission.csv"), index=False)


def prepare(raw, public, private):
    src_root = os.path.join(raw, "train")
    with open(os.path.join(src_root, "metadata.json"), encoding="utf-8") as f:
        old = json.load(f)
    groups = group_by_category(old["annotations"], old["images"], "id")
    train, test = split_groups(groups, 0.2, tail_rule=True)

    out_train = os.path.join(public, "train")
    new_train = dict(old, annotations=[], images=[])
    for cid, items in train.items():
        os.makedirs(os.path.join(out_train, "images", sub(cid)), exist_ok=True)
        for item in items:
            new_train["annotations"].append(dict(item["annotation"]))
            new_train["images"].append(dict(item["image"]))
            shutil.copyfile(os.path.join(src_root, item["image"]["file_name"]), os.path.join(out_train, item["image"]["file_name"]))
    with open(os.path.join(out_train, "metadata.json"), "w") as f:
        json.dump(new_train, f, indent=4, sort_keys=True)

    out_test = os.path.join(public, "test")
    new_test = {k: v for k, v in old.items() if k not in ("categories", "institutions")}
    new_test["annotations"], new_test["images"] = [], []
    for idx, item in enumerate(shuffled(test)):
        name = "images/%03d/%d.jpg" % (idx // 1000, idx)
        new_test["annotations"].append(dict(item["annotation"], image_id=str(idx)))
        new_test["images"].append(dict(item["image"], id=str(idx), file_name=name))
        os.makedirs(os.path.dirname(os.path.join(out_test, name)), exist_ok=True)
        shutil.copyfile(os.path.join(src_root, item["image"]["file_name"]), os.path.join(out_test, name))
    with open(os.path.join(out_test, "metadata.json"), "w") as f:
        json.dump({k: v for k, v in new_test.items() if k != "annotations"}, f, indent=4, sort_keys=True)

    answers = pd.DataFrame([{"Id": im["id"], "Predicted": an["category_id"]}
                            for im, an in zip(new_test["images"], new_test["annotations"])])
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    sample = pd.DataFrame([{"Id": im["id"], "Predicted": 0} for im in new_test["images"]])
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
