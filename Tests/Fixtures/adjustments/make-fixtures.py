#!/usr/bin/env python3
"""Makes the DEFLATE and property-list fixtures of LivePairFormatsTests (AdjustmentFormatsTests).

Run from this folder: python3 make-fixtures.py. Outputs are committed; the tests compare LivePair's
inflater and plist reader against what Python's zlib and plistlib wrote.
"""
import datetime, plistlib, zlib

def raw_deflate(data, level, strategy=zlib.Z_DEFAULT_STRATEGY):
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    return c.compress(data) + c.flush()

text = open("../../../SampleMedia/README.md", "rb").read()[:6000]
open("text.txt", "wb").write(text)
open("text.stored.deflate", "wb").write(raw_deflate(text, 0))
open("text.fixed.deflate", "wb").write(raw_deflate(text, 9, zlib.Z_FIXED))
open("text.dynamic.deflate", "wb").write(raw_deflate(text, 9))
# Several blocks: a full flush between parts ends a block and starts another.
c = zlib.compressobj(6, zlib.DEFLATED, -15)
parts = c.compress(text[:2000]) + c.flush(zlib.Z_FULL_FLUSH) + c.compress(text[2000:]) + c.flush()
open("text.blocks.deflate", "wb").write(parts)
# A bomb: 64 MiB of zeros in about 64 KiB.
open("zeros-64MiB.deflate", "wb").write(raw_deflate(b"\0" * (64 << 20), 9))

# IMG_1853.AAE rewritten as a binary plist (FMT_BINARY), same entries.
with open("../../../SampleMedia/live/IMG_1853.AAE", "rb") as f:
    aae = plistlib.load(f)
with open("IMG_1853.binary.AAE", "wb") as f:
    plistlib.dump(aae, f, fmt=plistlib.FMT_BINARY)

# Every binary plist type plistlib writes.
every = {
    "ascii": "plain",
    "unicode": "caf\u00e9 \u2014 \U0001F600",
    "small": 7, "negative": -42, "large": 2**40 + 3, "max": 2**63 - 1,
    "real": 0.3332932692307693, "flag": True, "off": False,
    "date": datetime.datetime(2025, 12, 29, 4, 7, 22),
    "bytes": bytes(range(256)) * 2,
    "nested": {"list": [1, "two", [3.5, {"four": 4}]], "empty": [], "emptyDict": {}},
    "many": list(range(40)),
}
with open("every-type.bplist", "wb") as f:
    plistlib.dump(every, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
with open("every-type.plist", "wb") as f:
    plistlib.dump(every, f, fmt=plistlib.FMT_XML, sort_keys=False)

# livepair-keyphoto-trim-mute-bounce.AAE is written by LivePair (AdjustmentSidecarTests.livePairFixture
# compares the writer's output with it); check here that plistlib and json read it.
with open("livepair-keyphoto-trim-mute-bounce.AAE", "rb") as f:
    ours = plistlib.load(f)
import json
recipe = json.loads(ours["adjustmentData"])
assert ours["adjustmentFormatIdentifier"] == "org.livepair.adjustments"
assert [step["identifier"] for step in recipe["adjustments"]] == ["LivePhotoKeyFrame", "Trim", "Mute", "AutoLoop"]
