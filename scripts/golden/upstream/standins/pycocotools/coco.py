"""Stand-in for pycocotools 2.0.8's `COCO` dataset index: loading from a JSON file or from
`.dataset = {...}; .createIndex()`, the id queries, and `loadRes` for box and caption results.

Kept as in pycocotools, because evaluation results depend on it: annotations are the very dicts
of the dataset (COCOeval writes flags into them), `anns` maps id -> annotation so a repeated id
keeps only the last one, and `getAnnIds` filters by `in` on the given lists. Drawing, downloading
and mask conversion (showAnns, download, annToRLE, annToMask) are not reproduced."""
import copy
import itertools
import json
from collections import defaultdict

import numpy as np


def _is_array_like(obj):
    return hasattr(obj, "__iter__") and hasattr(obj, "__len__")


def _as_list(obj):
    return obj if _is_array_like(obj) else [obj]


class COCO:
    def __init__(self, annotation_file=None):
        self.dataset, self.anns, self.cats, self.imgs = dict(), dict(), dict(), dict()
        self.imgToAnns, self.catToImgs = defaultdict(list), defaultdict(list)
        if annotation_file is not None:
            with open(annotation_file, "r") as f:
                dataset = json.load(f)
            assert type(dataset) == dict, "annotation file format {} not supported".format(type(dataset))
            self.dataset = dataset
            self.createIndex()

    def createIndex(self):
        anns, cats, imgs = {}, {}, {}
        img_to_anns, cat_to_imgs = defaultdict(list), defaultdict(list)
        data = self.dataset
        if "annotations" in data:
            for ann in data["annotations"]:
                img_to_anns[ann["image_id"]].append(ann)
                anns[ann["id"]] = ann
        if "images" in data:
            for img in data["images"]:
                imgs[img["id"]] = img
        if "categories" in data:
            for cat in data["categories"]:
                cats[cat["id"]] = cat
        if "annotations" in data and "categories" in data:
            for ann in data["annotations"]:
                cat_to_imgs[ann["category_id"]].append(ann["image_id"])
        self.anns, self.imgToAnns, self.catToImgs, self.imgs, self.cats = anns, img_to_anns, cat_to_imgs, imgs, cats

    def info(self):
        for key, value in self.dataset["info"].items():
            print("{}: {}".format(key, value))

    def getAnnIds(self, imgIds=[], catIds=[], areaRng=[], iscrowd=None):
        """Ids of the annotations on the given images, of the given categories, with area strictly
        inside areaRng and the given iscrowd; an empty filter is no filter."""
        imgIds, catIds = _as_list(imgIds), _as_list(catIds)
        if len(imgIds) == len(catIds) == len(areaRng) == 0:
            anns = self.dataset["annotations"]
        else:
            if len(imgIds) != 0:
                anns = list(itertools.chain.from_iterable(self.imgToAnns[i] for i in imgIds if i in self.imgToAnns))
            else:
                anns = self.dataset["annotations"]
            if len(catIds) != 0:
                anns = [a for a in anns if a["category_id"] in catIds]
            if len(areaRng) != 0:
                anns = [a for a in anns if a["area"] > areaRng[0] and a["area"] < areaRng[1]]
        if iscrowd is not None:
            return [a["id"] for a in anns if a["iscrowd"] == iscrowd]
        return [a["id"] for a in anns]

    def getCatIds(self, catNms=[], supNms=[], catIds=[]):
        catNms, supNms, catIds = _as_list(catNms), _as_list(supNms), _as_list(catIds)
        cats = self.dataset["categories"]
        if len(catNms) != 0:
            cats = [c for c in cats if c["name"] in catNms]
        if len(supNms) != 0:
            cats = [c for c in cats if c["supercategory"] in supNms]
        if len(catIds) != 0:
            cats = [c for c in cats if c["id"] in catIds]
        return [c["id"] for c in cats]

    def getImgIds(self, imgIds=[], catIds=[]):
        """The given image ids (all when none) that hold at least one annotation of every given category."""
        imgIds, catIds = _as_list(imgIds), _as_list(catIds)
        if len(imgIds) == len(catIds) == 0:
            return list(self.imgs.keys())
        ids = set(imgIds)
        for i, cat in enumerate(catIds):
            if i == 0 and len(ids) == 0:
                ids = set(self.catToImgs[cat])
            else:
                ids &= set(self.catToImgs[cat])
        return list(ids)

    @staticmethod
    def _load(table, ids):
        # A bare int gives a one-element list; anything else that is not array-like gives None.
        if _is_array_like(ids):
            return [table[i] for i in ids]
        if type(ids) == int:
            return [table[ids]]

    def loadAnns(self, ids=[]):
        return self._load(self.anns, ids)

    def loadCats(self, ids=[]):
        return self._load(self.cats, ids)

    def loadImgs(self, ids=[]):
        return self._load(self.imgs, ids)

    def loadRes(self, resFile):
        """A COCO of results (a JSON file name, an N x 7 array or a list of dicts) over this one's
        images. Box results get ids 1..N, area width*height, iscrowd 0 and a rectangle polygon as
        segmentation (the dicts are modified in place)."""
        res = COCO()
        res.dataset["images"] = [img for img in self.dataset["images"]]
        if type(resFile) == str:
            with open(resFile) as f:
                anns = json.load(f)
        elif type(resFile) == np.ndarray:
            anns = self.loadNumpyAnnotations(resFile)
        else:
            anns = resFile
        assert type(anns) == list, "results in not an array of objects"
        ann_img_ids = [a["image_id"] for a in anns]
        assert set(ann_img_ids) == (set(ann_img_ids) & set(self.getImgIds())), "Results do not correspond to current coco set"
        if "caption" in anns[0]:
            keep = set(img["id"] for img in res.dataset["images"]) & set(ann_img_ids)
            res.dataset["images"] = [img for img in res.dataset["images"] if img["id"] in keep]
            for i, ann in enumerate(anns):
                ann["id"] = i + 1
        elif "bbox" in anns[0] and not anns[0]["bbox"] == []:
            res.dataset["categories"] = copy.deepcopy(self.dataset["categories"])
            for i, ann in enumerate(anns):
                bb = ann["bbox"]
                x1, x2, y1, y2 = bb[0], bb[0] + bb[2], bb[1], bb[1] + bb[3]
                if "segmentation" not in ann:
                    ann["segmentation"] = [[x1, y1, x1, y2, x2, y2, x2, y1]]
                ann["area"] = bb[2] * bb[3]
                ann["id"] = i + 1
                ann["iscrowd"] = 0
        else:
            raise NotImplementedError("only box and caption results are reproduced by this stand-in")
        res.dataset["annotations"] = anns
        res.createIndex()
        return res

    def loadNumpyAnnotations(self, data):
        """Rows {imageID, x1, y1, w, h, score, class} -> result dicts."""
        assert type(data) == np.ndarray
        assert data.shape[1] == 7
        return [
            {
                "image_id": int(row[0]),
                "bbox": [row[1], row[2], row[3], row[4]],
                "score": row[5],
                "category_id": int(row[6]),
            }
            for row in data
        ]
