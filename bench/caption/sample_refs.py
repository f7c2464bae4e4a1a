#!/usr/bin/env python3
"""Draws the caption sample: image references (tag img/source) from `strata extract` output,
a seeded random draw per page host with the quotas below (a host with fewer gives all).
Writes one JSON object per line, to be judged by hand (see judged.jsonl and docs/extraction.md).

  sample_refs.py EXTRACT_DIR SHARED_DATA_DIR > sample.jsonl
"""
import glob
import json
import os
import random
import sys

QUOTAS = {  # page host -> references drawn
    "www.archive.org": 20, "www.solidarite-numerique.fr": 8, "twitter.com": 6,
    "netpreserveblog.wordpress.com": 3, "www.iana.org": 5, "books.toscrape.com": 4,
    "www.cdnow.com": 4, "mek.oszk.hu": 4, "wiki.archiveteam.org": 3,
    "www.richmondstrikers.com": 3, "free.allocine.fr": 3, "jobs.monsterindia.com": 2,
    "www.sueddeutsche.de": 2, "www.cbt.ki.se": 2, "www.houstonpress.com": 2,
    "commoncrawl.org": 2, "auer.netzliteratur.net": 2, "www.grandtourer.com.au": 2,
    "archive.org": 2,
}


def main():
    extract_dir, data_dir = sys.argv[1], os.path.realpath(sys.argv[2])
    by_host, seen_files = {}, {}
    for part in sorted(glob.glob(os.path.join(extract_dir, "part-*.jsonl"))):
        for line in open(part, encoding="utf-8"):
            ref = json.loads(line)
            if ref["type"] != "ref" or ref["tag"] not in ("img", "source"):
                continue
            # One copy of a crawl (the same pages are in several files): the first file wins.
            host = ref["pageHost"]
            first = seen_files.setdefault(host, ref["file"])
            if ref["file"] == first:
                by_host.setdefault(host, []).append(ref)
    rng = random.Random(20)
    for host, quota in QUOTAS.items():
        refs = by_host.get(host, [])
        # nth: the reference's place among the page's references to the same URL and tag.
        counts = {}
        for ref in refs:
            key = (ref["offset"], ref["imgUrl"], ref["tag"])
            ref["nth"] = counts.get(key, 0)
            counts[key] = ref["nth"] + 1
        for ref in sorted(rng.sample(refs, min(quota, len(refs))), key=lambda r: r["offset"]):
            print(json.dumps({
                "archive": os.path.relpath(os.path.realpath(ref["file"]), data_dir),
                "offset": ref["offset"], "pageUrl": ref["pageUrl"], "imgUrl": ref["imgUrl"],
                "tag": ref["tag"], "nth": ref["nth"], "captionBefore": ref["imgCaption"],
                "alt": ref["imgAlt"]}, ensure_ascii=False))


main()
