#!/usr/bin/env python3
"""Builds export folders of the layouts other than Google Takeout's two parts from SampleMedia/
for the import tests (ExportImportCommandTests). Standard library only; media bytes are copied
unchanged (hard links would share inodes with SampleMedia/, so files are written).

usage: make_exports.py SAMPLE_MEDIA_DIR OUTPUT_DIR

OUTPUT_DIR/
  takeout-old/Takeout/Google Photos/Photos from 2019/   old sidecar names: NAME.ext.json, and
                                                       STEM.json for a Live Photo's movie
  icloud/iCloud Photos/Photos/                          Photo Details.csv (BOM, CRLF, quoted name
                                                       with a comma), Photo Details-1.csv,
                                                       Albums/Holidays.csv, Albums/Family.csv,
                                                       Memories/ (ignored), a deleted file
  icloudpd-suffix/2025/05/26/                           IMG_3582.HEIC + IMG_3582_HEVC.MOV
  icloudpd-original/2025/08/17/                         IMG_4580.HEIC + IMG_4580.MOV
  image-capture/                                        IMG_1853.HEIC, IMG_E1853.heic, IMG_1853.AAE
  smart-switch/DCIM/Camera/                             Samsung motion photos under camera names
"""
import json
import os
import sys

media_root, output = sys.argv[1], sys.argv[2]


def media(relative):
    with open(f"{media_root}/{relative}", "rb") as handle:
        return handle.read()


def write(path, data):
    full = f"{output}/{path}"
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode())


def sidecar(title, taken, lat, lon, favorited=False, description=""):
    return json.dumps({
        "title": title, "description": description, "imageViews": "3",
        "creationTime": {"timestamp": str(taken + 3600), "formatted": "later"},
        "photoTakenTime": {"timestamp": str(taken), "formatted": "taken"},
        "geoData": {"latitude": lat, "longitude": lon, "altitude": 0.0},
        "favorited": favorited,
    }, indent=2)


# Old Takeout names (before 2024): IMG.jpeg.json for the still, IMG.json (stem) for its movie.
Y19 = "takeout-old/Takeout/Google Photos/Photos from 2019/"
write(Y19 + "IMG_5100.jpeg", media("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg"))
write(Y19 + "IMG_5100.mov", media("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov"))
write(Y19 + "IMG_5100.jpeg.json", sidecar("IMG_5100.jpeg", 1577674875, 37.7749, -122.4194, True, "Night walk"))
write(Y19 + "IMG_5100.json", sidecar("IMG_5100.mov", 1577674874, 37.7749, -122.4194))
write(Y19 + "IMG_0102.HEIC", media("plain/IMG_0102.HEIC"))
write(Y19 + "IMG_0102.HEIC.json", sidecar("IMG_0102.HEIC", 1262304000, 0.0, 0.0, False, "Old friends"))

# iCloud Photos export (Apple's data and privacy copy).
ICLOUD = "icloud/iCloud Photos/"
write(ICLOUD + "Photos/IMG_4580.HEIC", media("live/IMG_4580.HEIC"))
write(ICLOUD + "Photos/IMG_4580.mov", media("live/IMG_4580.mov"))
write(ICLOUD + "Photos/IMG_5747.HEIC", media("plain/IMG_5747.HEIC"))
write(ICLOUD + "Photos/Beach, sunset.jpg", media("broken/normalphoto.jpg"))
write(ICLOUD + "Photos/with-gps.mov", media("plain/with-gps.mov"))
write(ICLOUD + "Photos/pixel_8.jpg", media("plain/pixel_8.jpg"))
header = "imgName,fileChecksum,favorite,hidden,deleted,originalCreationDate,viewCount,importDate"
rows = [
    header,
    "IMG_4580.HEIC,AbC1=,yes,no,no,Sunday August 17,2025 7:33 PM GMT,4,Sunday August 17,2025 7:40 PM GMT",
    "IMG_4580.mov,AbC2=,no,no,no,Sunday August 17,2025 7:33 PM GMT,0,Sunday August 17,2025 7:40 PM GMT",
    '"Beach, sunset.jpg",AbC3=,yes,no,no,"Friday October 06,2023 12:11 PM GMT",2,"Friday October 06,2023 12:15 PM GMT"',
    "pixel_8.jpg,AbC4=,no,no,yes,Wednesday November 01,2023 2:11 PM GMT,0,Wednesday November 01,2023 2:20 PM GMT",
]
write(ICLOUD + "Photos/Photo Details.csv", b"\xef\xbb\xbf" + "\r\n".join(rows).encode() + b"\r\n")
write(ICLOUD + "Photos/Photo Details-1.csv", "\n".join([
    header,
    "IMG_5747.HEIC,AbC5=,no,yes,no,Saturday December 13,2025 11:39 PM GMT,1,Saturday December 13,2025 11:45 PM GMT",
    "with-gps.mov,AbC6=,no,no,no,Wednesday July 24,2019 8:25 AM GMT,0,Wednesday July 24,2019 8:30 AM GMT",
]) + "\n")
write(ICLOUD + "Albums/Holidays.csv", "Images\nIMG_4580.HEIC\n\"Beach, sunset.jpg\"\n")
write(ICLOUD + "Albums/Family.csv", "Images\r\nIMG_5747.HEIC\r\nwith-gps.mov\r\nIMG_4580.HEIC\r\n")
write(ICLOUD + "Memories/Summer 2025.csv", "Memory,Images\nSummer,IMG_4580.HEIC\n")

# icloudpd, default --live-photo-mov-filename-policy suffix: IMG_3582_HEVC.MOV.
write("icloudpd-suffix/2025/05/26/IMG_3582.HEIC", media("live/IMG_3582.HEIC"))
write("icloudpd-suffix/2025/05/26/IMG_3582_HEVC.MOV", media("live/IMG_3582.mov"))
# icloudpd, policy original: IMG_4580.MOV. (Its -adjusted renders are edit names the library
# already groups: EditTests; no sample render of this still exists to add here.)
write("icloudpd-original/2025/08/17/IMG_4580.HEIC", media("live/IMG_4580.HEIC"))
write("icloudpd-original/2025/08/17/IMG_4580.MOV", media("live/IMG_4580.mov"))

# Image Capture / AirDrop: original, Photos' render and its .AAE.
write("image-capture/IMG_1853.HEIC", media("live/IMG_1853.HEIC"))
write("image-capture/IMG_E1853.heic", media("live/IMG_E1853.heic"))
write("image-capture/IMG_1853.AAE", media("live/IMG_1853.AAE"))

# Samsung Smart Switch / a phone's DCIM/Camera: motion photos under Samsung camera names.
write("smart-switch/DCIM/Camera/20240112_213853.heic", media("motion/samsung-one-ui-6.heic"))
write("smart-switch/DCIM/Camera/20230328_225329.heic", media("motion/photo-sg22-ultra.heic"))
