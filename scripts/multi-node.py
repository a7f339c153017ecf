#!/usr/bin/env python3
"""The multi-node scenarios of docs/deployment.md, run by scripts/multi-node.sh (which starts the
servers and sets LIVEPAIR_S3_ENDPOINT and the AWS_* keys). Not meant to be run alone.

Four node processes (`livepair import --files-from - --json-lines`) share one PostgreSQL catalog and
one S3 store (SeaweedFS), each with its own scratch folder. They are fed PAIRS Live Photos (copies of
the SampleMedia pairs with fresh content identifiers) whose halves go to different nodes at about
the same moment, every 10th still again to a third node (a retry) and a byte-identical copy of every
25th movie. Scenarios: plain; two nodes killed (SIGKILL) at random points, their unanswered uploads
sent again to live nodes; the PostgreSQL server restarted (immediate stop) halfway, failed uploads
sent again; node 2 in its own network namespace cut off (its bridge port down) with two uploads in
flight, which must fail with a connection error within --cut-bound seconds, then its link restored
and its failed uploads sent to it again (netcut; the nodes run in namespaces of
scripts/netns-test.sh). Each must end with exactly PAIRS Live Photo assets, nothing pending, each resource
stored once in the bucket, and the same content identifiers and resource digests.
"""
import argparse, hashlib, json, os, random, re, subprocess, sys, threading, time, uuid
import xml.etree.ElementTree as ET
from urllib.parse import quote

SAMPLES = [("live/IMG_3582.HEIC", "live/IMG_3582.mov"), ("live/IMG_3582_edited.heic", "live/IMG_3582_edited.mov"),
           ("live/IMG_4580.HEIC", "live/IMG_4580.mov"), ("live/train.jpg", "live/train.mov"),
           ("live/51F2BEF7-431A-4D31-8AC1-3284A57826AE.jpeg", "live/51F2BEF7-431A-4D31-8AC1-3284A57826AE_3.mov")]


def manifest_identifiers(root):
    found = {}
    with open(os.path.join(root, "SampleMedia/manifest.tsv")) as manifest:
        for line in manifest:
            fields = line.rstrip("\n").split("\t")
            if len(fields) > 2 and fields[2] != "-":
                found[fields[0]] = fields[2]
    return found


def make_corpus(root, directory, pairs, seed):
    """Writes the copies; returns [(identifier, still, movie)], duplicates {index: path}, expected."""
    identifiers = manifest_identifiers(root)
    templates = []
    for still, movie in SAMPLES:
        identifier = identifiers[still]
        read = lambda name: open(os.path.join(root, "SampleMedia", name), "rb").read()
        templates.append((identifier.encode(), still, read(still), movie, read(movie)))
    generator = random.Random(seed)
    corpus, expected, duplicates = [], {}, {}
    for serial in range(pairs):
        old, still, still_bytes, movie, movie_bytes = templates[serial % len(templates)]
        fresh = str(uuid.UUID(int=generator.getrandbits(128))).upper()
        folder = os.path.join(directory, str(serial % 32))
        os.makedirs(folder, exist_ok=True)
        paths, digests = [], set()
        for name, data in ((still, still_bytes), (movie, movie_bytes)):
            patched = data.replace(old, fresh.encode())
            path = os.path.join(folder, f"{serial}-{os.path.basename(name)}")
            with open(path, "wb") as out:
                out.write(patched)
            paths.append(path)
            digests.add(hashlib.sha256(patched).hexdigest())
        corpus.append((fresh, paths[0], paths[1]))
        expected[fresh] = digests
        if serial % 25 == 7:
            copy = os.path.join(directory, "again", f"{serial}-copy.mov")
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            with open(paths[1], "rb") as source, open(copy, "wb") as out:
                out.write(source.read())
            duplicates[serial] = copy
    return corpus, duplicates, expected


class Node:
    """One `livepair import --files-from - --json-lines` process."""

    def __init__(self, number, command):
        self.number = number
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lock = threading.Lock()
        self.sent, self.outcomes = [], []
        self.started = {}
        self.latencies = []
        self.open = True
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            outcome = json.loads(line)
            with self.lock:
                self.outcomes.append(outcome)
                started = self.started.pop(outcome["path"], None)
                if started is not None:
                    self.latencies.append(time.monotonic() - started)
                    outcome["seconds"] = time.monotonic() - started

    def alive(self):
        return self.open and self.process.poll() is None

    def outstanding(self):
        with self.lock:
            return len(self.sent) - len(self.outcomes)

    def send(self, path):
        with self.lock:
            if not self.open:
                return
            self.sent.append(path)
            self.started[path] = time.monotonic()
            try:
                self.process.stdin.write(path + "\n")
                self.process.stdin.flush()
            except BrokenPipeError:
                self.open = False

    def wait_room(self, limit=3):
        while self.alive() and self.outstanding() >= limit:
            time.sleep(0.002)

    def wait_outcomes(self, timeout=600):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.alive() and self.outstanding() > 0:
            time.sleep(0.02)

    def kill(self):
        self.open = False
        self.process.kill()
        self.process.wait()

    def finish(self):
        if self.open:
            self.open = False
            self.process.stdin.close()
        return self.process.wait()


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs).stdout


def s3(method, endpoint, path, query=""):
    keys = f"{os.environ['AWS_ACCESS_KEY_ID']}:{os.environ['AWS_SECRET_ACCESS_KEY']}"
    region = os.environ.get("AWS_REGION", "us-east-1")
    url = f"{endpoint}/{path}" + (f"?{query}" if query else "")
    return run(["curl", "-sf", "-X", method, "--aws-sigv4", f"aws:amz:{region}:s3", "--user", keys, url])


def count_objects(endpoint, bucket, prefix):
    count, token = 0, None
    while True:
        # Parameters sorted and encoded as SigV4's canonical query wants them (curl signs the URL as given).
        query = (f"continuation-token={quote(token, safe='')}&" if token else "") + f"list-type=2&prefix={quote(prefix, safe='')}"
        tree = ET.fromstring(s3("GET", endpoint, bucket, query))
        namespace = tree.tag[: tree.tag.index("}") + 1] if tree.tag.startswith("{") else ""
        for key in tree.iter(namespace + "Key"):
            if re.fullmatch(r"[0-9a-f]{64}", key.text.rsplit("/", 1)[-1]):
                count += 1
        truncated = tree.find(namespace + "IsTruncated")
        token_element = tree.find(namespace + "NextContinuationToken")
        if truncated is None or truncated.text != "true" or token_element is None:
            return count
        token = token_element.text


def scenario(name, args, corpus, duplicates, pg_dir, endpoint):
    schema = "nodes_" + uuid.uuid4().hex[:12]
    run([args.psql, args.pg_url, "-Atqc", f"CREATE SCHEMA {schema}"])
    catalog = f"{args.pg_url}&options=-csearch_path%3D{schema}"
    bucket = "lp-nodes-" + uuid.uuid4().hex[:12]
    s3("PUT", endpoint, bucket)
    store = f"s3://{bucket}/nodes/"
    run([args.livepair, "library", "init", "--catalog", catalog, "--store", store])
    print(f"{name}: catalog schema {schema}, store {store}")
    netcut = name == "netcut"
    namespaces = args.netns_names.split() if netcut else []
    node_catalog = f"{args.pg_tcp_url}?options=-csearch_path%3D{schema}" if netcut else catalog
    nodes = [Node(n, (["ip", "netns", "exec", namespaces[n]] if netcut else []) +
                  [args.livepair, "import", "--catalog", node_catalog, "--store", store, "--files-from", "-",
                   "--json-lines", "--jobs", str(args.jobs), "--scratch", os.path.join(args.work, f"scratch-{name}-{n}")])
             for n in range(4)]
    cut = {"pair": len(corpus) // 2, "at": None, "in_flight": [], "seconds": None, "outcomes": [], "retried": []}
    generator = random.Random(args.seed)
    fifth = max(len(corpus) // 5, 1)
    kills = {fifth + generator.randrange(fifth): 1, 3 * fifth + generator.randrange(fifth): 3} if name == "kill" else {}
    live = list(range(4))
    started = time.monotonic()
    for index, (_, still, movie) in enumerate(corpus):
        if netcut and index == cut["pair"]:
            # Node 2 gets this still and the movie of the next pair, and is cut off at once.
            victim = nodes[2]
            victim.wait_outcomes()
            victim.send(still)
            nodes[3].send(movie)
            victim.send(corpus[index + 1][2])
            nodes[0].send(corpus[index + 1][1])
            run([args.netns_script, "cut", args.netns_dir, "2"])
            cut["at"] = time.monotonic()
            with victim.lock:
                answered = {o["path"] for o in victim.outcomes}
                cut["in_flight"] = [path for path in victim.sent if path not in answered]
            live.remove(2)
            print(f"  pair {index}: node 2 cut off with {len(cut['in_flight'])} uploads in flight")
            continue
        if netcut and index == cut["pair"] + 1:
            continue
        if index in kills:
            nodes[kills[index]].kill()
            live.remove(kills[index])
            print(f"  pair {index}: node {kills[index]} killed (SIGKILL)")
        if name == "restart" and index == len(corpus) // 2:
            run([args.pg_script, "restart", pg_dir])
            print(f"  pair {index}: PostgreSQL restarted (immediate stop, start)")
        first = index % len(live)
        step = 1 + (index // len(live)) % (len(live) - 1)
        a, b = live[first], live[(first + step) % len(live)]
        other = live[(first + 2 * step) % len(live)]
        other = b if other == a else other
        nodes[a].wait_room()
        nodes[b].wait_room()
        nodes[a].send(still)
        nodes[b].send(movie)
        if index % 10 == 3:
            nodes[other].send(still)
        if index in duplicates:
            nodes[other].send(duplicates[index])
    retried = 0
    if netcut:
        victim = nodes[2]
        victim.wait_outcomes(timeout=600)
        with victim.lock:
            firsts = {}
            for o in victim.outcomes:
                if o["path"] in cut["in_flight"]:
                    firsts.setdefault(o["path"], o)
            cut["outcomes"] = list(firsts.values())
            # Each in-flight upload's time from its send (just before the cut) to its answer.
            if len(cut["outcomes"]) == len(cut["in_flight"]) and all("seconds" in o for o in cut["outcomes"]):
                cut["seconds"] = round(max(o["seconds"] for o in cut["outcomes"]), 1)
            before = len(victim.outcomes)
        for o in cut["outcomes"]:
            print(f"  node 2 cut: {o['outcome']}: {o.get('error', '')[:200]}")
        print(f"  node 2's in-flight uploads answered {[round(o.get('seconds', -1), 1) for o in cut['outcomes']]} s "
              f"after they were sent (just before the cut); link restored")
        run([args.netns_script, "restore", args.netns_dir, "2"])
        for o in cut["outcomes"]:
            if o["outcome"] == "error":
                victim.wait_room()
                victim.send(o["path"])
        victim.wait_outcomes()
        with victim.lock:
            cut["retried"] = victim.outcomes[before:]
        print(f"  node 2 after the restore: {[o['outcome'] for o in cut['retried']]}")
    for _ in range(5):
        alive = [node for node in nodes if node.alive()]
        for node in alive:
            node.wait_outcomes()
        sent, answered = set(), set()
        for node in nodes:
            with node.lock:
                sent.update(node.sent)
                answered.update(o["path"] for o in node.outcomes if o["outcome"] != "error")
        unanswered = sorted(sent - answered)
        if not unanswered:
            break
        for index, path in enumerate(unanswered):
            alive[index % len(alive)].wait_room()
            alive[index % len(alive)].send(path)
        retried += len(unanswered)
    seconds = time.monotonic() - started
    statuses = [node.finish() for node in nodes if node.alive()]
    outcomes = [o for node in nodes for o in node.outcomes]
    other_errors = sum(o["outcome"] == "error" for node in nodes if node.number != 2 for o in node.outcomes)
    latencies = sorted(l for node in nodes for l in node.latencies)
    accepted = sum(o["outcome"] == "accepted" for o in outcomes)
    errors = sum(o["outcome"] == "error" for o in outcomes)
    listing = json.loads(run([args.livepair, "library", "list", "--json", "--catalog", catalog, "--store", store]))
    rows = run([args.psql, catalog, "-Atqc",
                "SELECT a.content_identifier, r.digest, a.subtypes FROM assets a JOIN resources r ON r.asset_id = a.id"])
    summary, live_photos = {}, set()
    for row in rows.splitlines():
        identifier, digest, subtypes = row.split("|")
        summary.setdefault(identifier, set()).add(digest)
    assets = int(run([args.psql, catalog, "-Atqc", "SELECT count(*) FROM assets"]).strip())
    live_photos = int(run([args.psql, catalog, "-Atqc", "SELECT count(*) FROM assets WHERE subtypes & 8 <> 0"]).strip())
    objects = count_objects(endpoint, bucket, "nodes/")
    p50 = latencies[len(latencies) // 2] * 1000 if latencies else 0
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000 if latencies else 0
    print(f"  {len(corpus)} pairs in {seconds:.1f} s ({len(corpus) / seconds:.1f} pairs/s; per upload p50 {p50:.0f} ms, "
          f"p99 {p99:.0f} ms); {len(outcomes)} outcomes, {accepted} accepted, {errors} errors, {retried} sent again; "
          f"node exits {statuses}")
    print(f"  catalog: {assets} assets, {live_photos} Live Photos, {listing.get('pending')} pending; bucket: {objects} resource objects")
    s3("DELETE", endpoint, bucket)  # with its objects (SeaweedFS), so the disk holds one scenario at a time
    return {"assets": assets, "live_photos": live_photos, "pending": listing.get("pending"), "objects": objects,
            "summary": summary, "accepted": accepted, "errors": errors, "statuses": statuses, "cut": cut,
            "other_errors": other_errors}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--livepair", required=True)
    parser.add_argument("--pg-url", required=True)
    parser.add_argument("--pg-dir", required=True)
    parser.add_argument("--pg-script", required=True)
    parser.add_argument("--psql", default="/usr/lib/postgresql/15/bin/psql")
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0x5EED)
    parser.add_argument("--scenarios", default="plain,kill,restart,netcut")
    parser.add_argument("--pg-tcp-url", default="")
    parser.add_argument("--netns-script", default="")
    parser.add_argument("--netns-dir", default="")
    parser.add_argument("--netns-names", default="")
    # With the product's default timeouts an upload cut mid-flight fails within about 1 to 2 minutes.
    parser.add_argument("--cut-bound", type=float, default=180)
    args = parser.parse_args()
    endpoint = os.environ["LIVEPAIR_S3_ENDPOINT"]
    started = time.monotonic()
    corpus, duplicates, expected = make_corpus(args.root, os.path.join(args.work, "uploads"), args.pairs, args.seed)
    print(f"corpus: {args.pairs} Live Photos, {len(duplicates)} duplicate copies, written in {time.monotonic() - started:.1f} s")
    failures = []
    for name in args.scenarios.split(","):
        result = scenario(name, args, corpus, duplicates, args.pg_dir, endpoint)
        checks = [("Live Photo assets", result["live_photos"], args.pairs), ("assets", result["assets"], args.pairs),
                  ("pending", result["pending"], 0), ("resource objects", result["objects"], 2 * args.pairs),
                  ("identifiers and digests as the corpus says", result["summary"] == expected, True)]
        if name == "plain":
            checks += [("accepted uploads", result["accepted"], args.pairs), ("errors", result["errors"], 0)]
        if name == "netcut":
            cut = result["cut"]
            clear = [o for o in cut["outcomes"] if o["outcome"] == "error" and
                     ("PostgreSQL connection error" in o.get("error", "") or "no answer from the server" in o.get("error", ""))]
            checks += [("uploads in flight at the cut (1 or 2)", 1 <= len(cut["in_flight"]) <= 2, True),
                       ("in-flight uploads failed with a connection error", len(clear), len(cut["in_flight"])),
                       (f"failed within {args.cut_bound} s (took {cut['seconds']})",
                        cut["seconds"] is not None and cut["seconds"] <= args.cut_bound, True),
                       ("retried on the restored node without error",
                        [o["outcome"] for o in cut["retried"] if o["outcome"] == "error"], []),
                       ("errors on the nodes not cut", result["other_errors"], 0),
                       ("node exit statuses", result["statuses"], [0, 0, 1, 0])]
        for label, found, wanted in checks:
            if found != wanted:
                failures.append(f"{name}: {label}: {found}, expected {wanted}")
    for failure in failures:
        print("FAILED " + failure)
    print("multi-node: all scenarios passed" if not failures else "multi-node: FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
