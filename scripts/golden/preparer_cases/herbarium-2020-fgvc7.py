"""herbarium-2020-fgvc7: synthetic raw files and upstream's preparation steps."""
import json
import os
import shutil

import pandas as pd

from _herbarium import category_labels, fake_jpg, group_by_category, rng, shuffled, species, split_groups, sub

REGIONS = ["Andaman-Nicobar Is.", "Bolivia", "Caf\xe9 Is.", "C\xf4te d'Ivoire", "S\xe3o Paulo", "Zaire"]


def metadata(rs):
    cats, labels = category_labels(rs, 24, 32093)
    image_ids = [int(v) for v in rs.choice(1_100_000, size=len(labels), replace=False)]
    annotations, images = [], []
    for label, iid in zip(labels, image_ids):
        # Kaggle's key order is not sorted; json.dump(sort_keys=True) has to put it right.
        annotations.append({"image_id": iid, "category_id": label, "id": iid, "region_id": int(rs.randint(len(REGIONS)))})
        images.append({"id": iid, "file_name": "images/%s/%d.jpg" % (sub(label), iid),
                       "width": int(rs.randint(600, 700)), "height": 1000, "license": 0})
    categories = []
    for cid in cats:
        name = species(rs)
        # The cp1252 dash byte 0x96 that makes Kaggle's file invalid UTF-8.
        if cid % 3 == 0:
            name += " \x96 var. x"
        categories.append({"name": name, "id": cid, "genus": name.split(" ")[0], "family": "Orchidaceae"})
    return {
        "info": {"year": 2020, "version": "1.0", "description": "Herbarium 2020 \u2013 FGVC7 (NYBG)",
                 "contributor": "New York Botanical Garden", "url": "https://github.com/visipedia/herbarium_comp",
                 "date_created": "2020-02-12 16:49:32.285960"},
        "images": images,
        "annotations": annotations,
        "categories": categories,
        "licenses": [{"url": "https://creativecommons.org/publicdomain/zero/1.0/", "id": 0, "name": "Public Domain Dedication"}],
        "regions": [{"id": i, "name": r} for i, r in enumerate(REGIONS)],
    }


def make_raw(raw):
    rs = rng(2020)
    meta = metadata(rs)
    train = os.path.join(raw, "nybg2020", "train")
    os.makedirs(train)
    # Latin-1 bytes as Kaggle ships them; characters beyond Latin-1 become \\u escapes.
    text = json.dumps(meta, ensure_ascii=False).encode("latin-1", "backslashreplace")
    with open(os.path.join(train, "metadata.json"), "wb") as f:
        f.write(text)
    for image in meta["images"]:
        fake_jpg(os.path.join(train, image["file_name"]), str(image["id"]))
    # Kaggle's unlabelled test folder: shipped, never read.
    test = os.path.join(raw, "nybg2020", "test")
    os.makedirs(test)
    with open(os.path.join(test, "metadata.json"), "w") as f:
        json.dump({"images": [{"file_name": "images/000/0.jpg", "id": 0}], "info": meta["info"], "licenses": meta["licenses"]}, f)
    fake_jpg(os.path.join(test, "images", "000", "0.jpg"), "kaggle test")


def prepare(raw, public, private):
    src_root = os.path.join(raw, "nybg2020", "train")
    with open(os.path.join(src_root, "metadata.json"), encoding="latin-1") as f:
        old = json.load(f)
    groups = group_by_category(old["annotations"], old["images"], "id")
    train, test = split_groups(groups, 0.2, tail_rule=True)

    out_train = os.path.join(public, "nybg2020", "train")
    new_train = dict(old, annotations=[], images=[])
    for cid, items in train.items():
        os.makedirs(os.path.join(out_train, "images", sub(cid)), exist_ok=True)
        for item in items:
            new_train["annotations"].append(dict(item["annotation"]))
            new_train["images"].append(dict(item["image"]))
            shutil.copyfile(os.path.join(src_root, item["image"]["file_name"]), os.path.join(out_train, item["image"]["file_name"]))
    with open(os.path.join(out_train, "metadata.json"), "w") as f:
        json.dump(new_train, f, indent=4, sort_keys=True)

    out_test = os.path.join(public, "nybg2020", "test")
    new_test = {k: v for k, v in old.items() if k not in ("categories", "regions")}
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
