"""Stand-in for pycocotools 2.0.8: `coco.COCO`, `cocoeval.COCOeval` for bounding boxes and the box
IoU of `mask.iou`, in plain Python and numpy (no compiled mask API, so no RLE or polygon masks)."""
