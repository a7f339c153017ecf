#!/usr/bin/env python3
"""Builds a Google Takeout export from SampleMedia/ for the tests (TakeoutPairCommandTests).

usage: make_takeout.py SAMPLE_MEDIA_DIR OUTPUT_DIR

Writes OUTPUT_DIR/takeout-20261201T000000Z-001.zip and -002.tgz: one tree
(Takeout/Google Photos/...) split over two parts, one asset's still, movie and JSON in different
parts, sidecar names of every kind (NAME.json, NAME.supplemental-metadata.json, its truncations at
51 characters: ...supplemental-metad.json, ...suppl.json, a cut stem, NAME.jpg(1).json), an -edited
render, an album with a localised metadata file, a trashed and an archived file, and files Takeout
adds that are not media. Built with the standard library only (zipfile, tarfile): no tool touches
the media bytes except one documented patch (the movie Google re-encoded without its identifier).
"""
import io
import json
import sys
import tarfile
import zipfile

media_root, output = sys.argv[1], sys.argv[2]
G = "Takeout/Google Photos/"


def media(relative):
    with open(f"{media_root}/{relative}", "rb") as handle:
        return handle.read()


def sidecar(title, taken, lat=0.0, lon=0.0, favorited=None, description="", archived=None, trashed=None):
    body = {
        "title": title,
        "description": description,
        "imageViews": "0",
        "creationTime": {"timestamp": str(taken + 86400), "formatted": "later"},
        "photoTakenTime": {"timestamp": str(taken), "formatted": "taken"},
        "geoData": {"latitude": lat, "longitude": lon, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
        "geoDataExif": {"latitude": 0.0, "longitude": 0.0, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
        "url": "https://photos.google.com/photo/x",
    }
    if favorited is not None:
        body["favorited"] = favorited
    if archived is not None:
        body["archived"] = archived
    if trashed is not None:
        body["trashed"] = trashed
    return json.dumps(body, indent=2).encode()


# The movie Google re-encoded: train.mov without its content identifier (the key renamed, same
# length, so every offset stays right); its capture date stays 1 s before the still's.
train_movie = media("live/train.mov").replace(
    b"com.apple.quicktime.content.identifier", b"com.apple.quicktime.content.identifiex")
assert train_movie != media("live/train.mov")

Y21, Y25, Y16 = G + "Photos from 2021/", G + "Photos from 2025/", G + "Photos from 2016/"
ALBUM = G + "Voyage à Paris/"
LAKE = "IMG_4580_sunset_lake_x"                       # 22 characters: .HEIC.supplemental-metad.json is 51
HARBOUR = "Photo_of_harbour_at_dawn_IMG_2682_x"       # 35 + .heic = 40: .suppl.json makes 51
LONG = "20230323_101938_a_very_long_name_from_a_web_upload_IMG_1853"  # cut inside the stem

part1 = {
    # A Live Photo whose halves pair by stem and time (the movie lost its identifier), both in part 1,
    # and the same files again in an album folder (one asset, in the album).
    Y21 + "train.jpg": media("live/train.jpg"),
    Y21 + "train.jpg.supplemental-metadata.json": sidecar(
        "train.jpg", 1618051440, 48.8584, 2.2945, favorited=True, description="Le train"),
    Y21 + "train.MP4": train_movie,
    ALBUM + "train.jpg": media("live/train.jpg"),
    ALBUM + "train.MP4": train_movie,
    ALBUM + "train.jpg.supplemental-metadata.json": sidecar(
        "train.jpg", 1618051440, 48.8584, 2.2945, favorited=True, description="Le train"),
    ALBUM + "métadonnées.json": json.dumps({"title": "Voyage à Paris", "description": "", "access": "protected",
                                            "date": {"timestamp": "1618000000", "formatted": "x"}}).encode(),
    # A Live Photo split over the parts: the still here, the movie and the still's JSON in part 2.
    Y25 + LAKE + ".HEIC": media("live/IMG_4580.HEIC"),
    # IMG_3582: still here, movie and JSON in part 2, its -edited render here.
    Y25 + "IMG_3582.HEIC": media("live/IMG_3582.HEIC"),
    Y25 + "IMG_3582-edited.HEIC": media("live/IMG_3582_edited.heic"),
    # A plain photo whose sidecar name is cut to ...suppl.json; archived.
    Y25 + HARBOUR + ".heic": media("plain/IMG_2682.heic"),
    Y25 + (HARBOUR + ".heic.supplemental-metadata")[:46] + ".json": sidecar(
        HARBOUR + ".heic", 1553166262, -33.8568, 151.2153, archived=True),
    # A motion photo, its JSON name cut to ...supplemental-met.json.
    Y21 + "PXL_20200710_061629144.MP.jpg": media("motion/PXL_20200710_061629144.MP.jpg"),
    Y21 + ("PXL_20200710_061629144.MP.jpg.supplemental-metadata")[:46] + ".json": sidecar(
        "PXL_20200710_061629144.MP.jpg", 1594361789, 37.4220, -122.0841),
    # Takeout's split of the motion photo: its embedded video as a loose MP4 (bytes 2728123 to
    # 2728123 + 1317283 of the file, where its Container XMP puts it).
    Y21 + "PXL_20200710_061629144.MP4": media("motion/PXL_20200710_061629144.MP.jpg")[2728123:2728123 + 1317283],
    # Copies: IMG_2927.HEIC (NAME.json, old naming) and IMG_2927(1).HEIC (NAME.jpg(1).json).
    Y21 + "IMG_2927.HEIC": media("live/IMG_2927.HEIC"),
    Y21 + "IMG_2927(1).HEIC": media("live/exif-at-eof.heic"),
    Y21 + "IMG_2927.HEIC(1).json": sidecar("IMG_2927.HEIC", 1588610352),
    # Takeout's own files that are not media.
    "Takeout/archive_browser.html": b"<html><body>Takeout</body></html>\n",
    G + "print-subscriptions.json": json.dumps({"subscriptions": []}).encode(),
}
part2 = {
    Y25 + LAKE + ".mov": media("live/IMG_4580.mov"),
    Y25 + (LAKE + ".HEIC.supplemental-metadata")[:46] + ".json": sidecar(
        LAKE + ".HEIC", 1755459228, 45.4408, 12.3155, favorited=False, description="Lake at sunset"),
    Y25 + "IMG_3582.mov": media("live/IMG_3582.mov"),
    Y25 + "IMG_3582.HEIC.supplemental-metadata.json": sidecar("IMG_3582.HEIC", 1748269626, favorited=True),
    Y21 + "IMG_2927.HEIC.json": sidecar("IMG_2927.HEIC", 1588617551),
    # A long name: the JSON is the name cut at 46 characters + .json.
    Y21 + LONG + ".HEIC": media("live/IMG_1853.HEIC"),
    Y21 + (LONG + ".HEIC")[:46] + ".json": sidecar(LONG + ".HEIC", 1679566778, 51.5007, -0.1246),
    # 2 s apart or more: a still and a movie sharing a stem, captured years apart, never paired.
    Y16 + "IMG_3539.MOV": media("plain/IMG_3539.MOV"),
    Y16 + "IMG_3539.HEIC": media("plain/IMG_0102.HEIC"),
    # The same bytes under another name: one asset, the copy reported as its duplicate.
    Y16 + "IMG_3539_copy.HEIC": media("plain/IMG_0102.HEIC"),
    # Trashed in Google Photos: reported, not taken.
    Y16 + "with-gps.mov": media("plain/with-gps.mov"),
    Y16 + "with-gps.mov.json": sidecar("with-gps.mov", 1563956740, trashed=True),
    # A sidecar whose photo is not in the export.
    Y16 + "gone.jpg.json": sidecar("gone.jpg", 1453159240),
}

# Every truncated name is as Takeout writes them: 51 characters in all.
for name in part1.keys() | part2.keys():
    last = name.rsplit("/", 1)[-1]
    if last.endswith(".json") and not last.endswith("supplemental-metadata.json") and len(last) > 40:
        assert len(last) == 51, (last, len(last))
assert (HARBOUR + ".heic.supplemental-metadata")[:46].endswith(".suppl")
assert (LAKE + ".HEIC.supplemental-metadata")[:46].endswith(".supplemental-metad")

with zipfile.ZipFile(f"{output}/takeout-20261201T000000Z-001.zip", "w", zipfile.ZIP_DEFLATED) as archive:
    for name in sorted(part1):
        archive.writestr(name, part1[name])
with tarfile.open(f"{output}/takeout-20261201T000000Z-002.tgz", "w:gz") as archive:
    for name in sorted(part2):
        info = tarfile.TarInfo(name)
        info.size = len(part2[name])
        archive.addfile(info, io.BytesIO(part2[name]))
