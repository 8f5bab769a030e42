"""inaturalist-2019-fgvc6: synthetic raw files and upstream's preparation steps.

Upstream tars the copied image folders with tarfile.add, which records each copy's mtime, owner
and permissions and walks the folder in directory order; none of that is reproducible. Here
each member gets TarInfo's defaults (mode 0644, uid/gid 0, no names, mtime 0) and the folder is
walked in sorted order; names, data and the archive's layout are upstream's."""
import gzip
import json
import os
import random
import shutil
import tarfile

import pandas as pd

from _herbarium import category_labels, fake_jpg, group_by_category, rng, shuffled, split_groups

SUPER = ["Amphibians", "Birds", "Fungi", "Insects", "Plants", "Reptiles"]
HOLDERS = ["Ken-ichi Ueda", "Jos\u00e9 Mar\u00eda P\u00e9rez", "\u5c0f\u6797 \u4e00\u8336", "Sam \"Birder\" O'Neil", "", "M\u00fcller, Anna"]


def image_record(rs, iid, name):
    return {"license": int(rs.randint(1, 7)), "file_name": name, "rights_holder": HOLDERS[rs.randint(len(HOLDERS))],
            "height": 800, "width": int(rs.choice([600, 533, 800])), "id": iid}


def metadata(rs):
    cats, labels = category_labels(rs, 24, 1010)
    supers = {cid: SUPER[rs.randint(len(SUPER))] for cid in cats}
    images, annotations = [], []
    for iid, label in enumerate(labels):
        stem = rs.bytes(16).hex()
        if iid == 5:
            stem = "x" * 95  # a member name past ustar's 100 characters
        if iid == 9:
            stem = "caf\u00e9_" + stem  # a non-ASCII member name
        images.append(image_record(rs, iid, "train_val2019/%s/%d/%s.jpg" % (supers[label], label, stem)))
        annotations.append({"image_id": iid, "category_id": label, "id": iid})
    categories = [{"id": cid, "name": str(cid), "kingdom": "Plantae" if supers[cid] == "Plants" else "Animalia",
                   "phylum": "Tracheophyta", "class": "Magnoliopsida", "order": "Asterales", "family": "Asteraceae", "genus": "Aster"}
                  for cid in cats]
    val_images = [image_record(rs, 10_000 + i, "train_val2019/%s/%d/%s.jpg" % (supers[cats[i]], cats[i], rs.bytes(16).hex())) for i in range(3)]
    info = {"year": 2019, "version": "1.0", "description": "iNaturalist 2019 \u2013 FGVC6", "contributor": "iNaturalist",
            "url": "https://github.com/visipedia/inat_comp", "date_created": "2019-03-19 11:13:16"}
    licenses = [{"url": "http://creativecommons.org/licenses/by-nc/4.0/", "id": i, "name": "License %d" % i} for i in range(1, 7)]
    train = {"info": info, "images": images, "licenses": licenses, "annotations": annotations, "categories": categories}
    val = {"info": info, "images": val_images, "licenses": licenses,
           "annotations": [{"image_id": im["id"], "category_id": cats[i], "id": im["id"]} for i, im in enumerate(val_images)],
           "categories": categories}
    return train, val


def make_raw(raw):
    rs = rng(2019)
    train, val = metadata(rs)
    with open(os.path.join(raw, "train2019.json"), "w", encoding="utf-8") as f:
        json.dump(train, f)
    with open(os.path.join(raw, "val2019.json"), "w", encoding="utf-8") as f:
        json.dump(val, f, indent=2)
    with open(os.path.join(raw, "test2019.json"), "w") as f:
        json.dump({"info": train["info"], "images": [], "licenses": train["licenses"]}, f)
    pd.DataFrame({"id": [0], "predicted": [0]}).to_csv(os.path.join(raw, "kaggle_sample_submission.csv"), index=False)
    # Kaggle ships the images only inside train_val2019.tar.gz.
    staging = os.path.join(raw, "_staging")
    for image in train["images"] + val["images"]:
        fake_jpg(os.path.join(staging, image["file_name"]), str(image["id"]))
    # A zero gzip timestamp keeps the raw archive's bytes the same from run to run.
    with gzip.GzipFile(os.path.join(raw, "train_val2019.tar.gz"), "wb", mtime=0) as gz, tarfile.open(fileobj=gz, mode="w") as tar:
        for folder, dirs, files in os.walk(staging):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(folder, name)
                info = tarfile.TarInfo(os.path.relpath(full, staging))
                info.size = os.path.getsize(full)
                with open(full, "rb") as f:
                    tar.addfile(info, f)
    shutil.rmtree(staging)


def tar_folder(src, out):
    """Upstream's add_to_tar, every file of src under its relative name, with fixed member metadata."""
    with tarfile.open(out, "w") as tar:
        for folder, dirs, files in os.walk(src):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(folder, name)
                info = tarfile.TarInfo(os.path.relpath(full, src))
                info.size = os.path.getsize(full)
                with open(full, "rb") as f:
                    tar.addfile(info, f)


def prepare(raw, public, private):
    if not os.path.exists(os.path.join(raw, "train_val2019")):
        shutil.unpack_archive(os.path.join(raw, "train_val2019.tar.gz"), raw)
    with open(os.path.join(raw, "train2019.json"), encoding="utf-8") as f:
        old = json.load(f)
    groups = group_by_category(old["annotations"], old["images"], "id")
    train, test = split_groups(groups, 0.12, tail_rule=True)

    train_items = [item for items in train.values() for item in items]
    new_train = dict(old, annotations=[dict(i["annotation"]) for i in train_items], images=[dict(i["image"]) for i in train_items])
    with open(os.path.join(public, "train2019.json"), "w") as f:
        json.dump(new_train, f, indent=4, sort_keys=True)
    shutil.copy(os.path.join(raw, "val2019.json"), os.path.join(public, "val2019.json"))

    moved = {}
    new_test = {k: v for k, v in old.items() if k != "categories"}
    new_test["annotations"], new_test["images"] = [], []
    for item in shuffled(test):
        new_test["annotations"].append(dict(item["annotation"]))
        name = "test2019/" + item["image"]["file_name"].split("/")[-1]
        moved[name] = item["image"]["file_name"]
        new_test["images"].append(dict(item["image"], file_name=name))
    with open(os.path.join(public, "test2019.json"), "w") as f:
        json.dump({k: v for k, v in new_test.items() if k != "annotations"}, f, indent=4, sort_keys=True)

    answers = pd.DataFrame([{"id": im["id"], "predicted": an["category_id"]} for im, an in zip(new_test["images"], new_test["annotations"])])
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    sample = answers.copy()
    sample["predicted"] = [random.Random(42).randint(0, 1009) for _ in range(len(sample))]
    sample.to_csv(os.path.join(public, "kaggle_sample_submission.csv"), index=False)

    for item in train_items:
        dst = os.path.join(public, item["image"]["file_name"])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.join(raw, item["image"]["file_name"]), dst)
    for image in new_test["images"]:
        dst = os.path.join(public, image["file_name"])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.join(raw, moved[image["file_name"]]), dst)

    tar_folder(os.path.join(public, "test2019"), os.path.join(public, "test2019.tar.gz"))
    tar_folder(os.path.join(public, "train_val2019"), os.path.join(public, "train_val2019.tar.gz"))
    shutil.rmtree(os.path.join(public, "test2019"))
    shutil.rmtree(os.path.join(public, "train_val2019"))
