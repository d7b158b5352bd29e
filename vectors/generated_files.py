"""The last step of every format's generate.py: write the files it generated, or, with --check,
compare them with the disk; either way the case files no case writes any more are found (and,
when writing, removed with the folders they leave empty), so that what is committed is exactly
what the generator writes."""

import os


def sync(files, cases_dir, check, shown_from):
    """files: {path: bytes}, paths absolute or relative to the working directory; cases_dir: the
    folder of case inputs, searched for stale files. Returns what differs (check) or was stale, as
    paths relative to `shown_from`, "(missing)" or "(written by no case)" added where it says so."""
    differ = []
    for path, data in sorted(files.items()):
        path = os.path.normpath(path)
        if not check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            continue
        try:
            with open(path, "rb") as f:
                if f.read() != data:
                    differ.append(os.path.relpath(path, shown_from))
        except OSError:
            differ.append(os.path.relpath(path, shown_from) + " (missing)")
    wanted = {os.path.normpath(p) for p in files}
    for dirpath, _, names in os.walk(cases_dir, topdown=False):
        for n in sorted(names):
            p = os.path.normpath(os.path.join(dirpath, n))
            if p in wanted:
                continue
            if check:
                differ.append(os.path.relpath(p, shown_from) + " (written by no case)")
            else:
                os.remove(p)
        if not check and os.path.normpath(dirpath) != os.path.normpath(cases_dir) \
                and not os.listdir(dirpath):
            os.rmdir(dirpath)
    return differ
