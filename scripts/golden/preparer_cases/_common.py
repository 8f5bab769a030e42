"""Shared by the preparer oracles: stable raw archives and the md5 listing of prepared folders."""
import hashlib
import io
import os
import zipfile

# Fixed member dates keep the bytes of generated raw archives stable from run to run.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def md5_bytes(data):
    return hashlib.md5(data).hexdigest()


def md5(path):
    with open(path, "rb") as f:
        return md5_bytes(f.read())


def write_zip_csv(df, raw_dir, zip_name, member):
    """The raw folder as Kaggle ships it: a CSV inside a zip."""
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    write_zip_members(os.path.join(raw_dir, zip_name), {member: buf.getvalue().encode()})


def write_zip_members(zip_path, members):
    """A deflated zip holding {name: bytes}, in the given order, with fixed dates."""
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(zipfile.ZipInfo(name, ZIP_DATE), data, compress_type=zipfile.ZIP_DEFLATED)


def zip_tree(src_dir, zip_path):
    """Zip every file under src_dir with names relative to it (the zip analogue of a raw folder)."""
    members = {}
    for folder, dirs, files in os.walk(src_dir):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(folder, name)
            with open(full, "rb") as f:
                members[os.path.relpath(full, src_dir).replace(os.sep, "/")] = f.read()
    write_zip_members(zip_path, members)


def listing(label, root):
    """md5 of every file under root, keyed "<label>/<path>". A zip is listed by its members,
    "<label>/<path>:<member>", because upstream never checksums zips and member order and dates vary."""
    out = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            full = os.path.join(folder, name)
            rel = "%s/%s" % (label, os.path.relpath(full, root).replace(os.sep, "/"))
            if name.lower().endswith(".zip"):
                with zipfile.ZipFile(full) as z:
                    for info in z.infolist():
                        if not info.is_dir():
                            out["%s:%s" % (rel, info.filename)] = md5_bytes(z.read(info))
            else:
                out[rel] = md5(full)
    return out
