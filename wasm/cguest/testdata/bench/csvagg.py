# CSV aggregation: group rows of a CSV by region and month, sum and count
# amounts, keep the top codes; prints a small JSON summary.
#   python3 csvagg.py FILE.csv          aggregate FILE.csv
#   python3 csvagg.py --make FILE MB    write a deterministic CSV of MB MiB
import collections, csv, json, sys

def make(path, mb):
    regions = ["north", "south", "east", "west", "central"]
    x = 12345
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["date", "region", "amount", "code"])
        i = 0
        while f.tell() < mb << 20:
            x = (x * 1103515245 + 12345) % 2147483648
            w.writerow([f"2026-{x % 12 + 1:02d}-{x % 28 + 1:02d}", regions[x % 5],
                        f"{(x >> 8) % 100000 / 100:.2f}", f"C{(x >> 4) % 997}"])
            i += 1

def aggregate(path):
    sums = collections.defaultdict(float)
    counts = collections.Counter()
    codes = collections.Counter()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["region"], row["date"][:7])
            sums[key] += float(row["amount"])
            counts[key] += 1
            codes[row["code"]] += 1
    out = {f"{r} {m}": [counts[(r, m)], round(sums[(r, m)], 2)] for r, m in sorted(sums)}
    out["top"] = codes.most_common(3)
    return out

if __name__ == "__main__":
    if sys.argv[1] == "--make":
        make(sys.argv[2], int(sys.argv[3]))
    else:
        print(json.dumps(aggregate(sys.argv[1]), sort_keys=True)[:200])
