# A pystone-like CPU-bound loop: classes, attribute access, function
# calls, list indexing, string and integer arithmetic, dict updates.
import sys

class Record:
    __slots__ = ("ptr", "discr", "enum", "intcomp", "string")
    def __init__(self, ptr=None, discr=0, enum=0, intcomp=0, string=""):
        self.ptr, self.discr, self.enum, self.intcomp, self.string = ptr, discr, enum, intcomp, string
    def copy(self):
        return Record(self.ptr, self.discr, self.enum, self.intcomp, self.string)

def proc3(r, glob):
    if r is not None:
        r.ptr = glob.ptr
    glob.intcomp = func_add(10, glob.intcomp)
    return r

def func_add(a, b):
    return (a + b) % 1000003

def proc1(r, glob):
    nxt = r.ptr = glob.copy()
    r.intcomp = 5
    nxt.intcomp = r.intcomp
    nxt.ptr = r.ptr
    proc3(nxt, glob)
    if nxt.discr == 0:
        nxt.intcomp = 6
        nxt.enum = (r.enum + 1) % 5
    else:
        r = nxt.copy()
    return r

def main(loops):
    glob = Record(None, 0, 2, 40, "DHRYSTONE PROGRAM, SOME STRING")
    arr = [0] * 51
    counts = {}
    acc = 0
    for i in range(loops):
        r = Record(glob, 0, 1, i, "DHRYSTONE PROGRAM, 1'ST STRING")
        r = proc1(r, glob)
        arr[i % 51] = arr[(i * 7) % 51] + r.intcomp
        s = r.string[:9] + str(i % 97)
        counts[s] = counts.get(s, 0) + 1
        acc = (acc * 31 + len(s) + arr[i % 51]) & 0xFFFFFFFF
        j = 0
        while j < 3:
            acc ^= j << (i & 7)
            j += 1
    return acc, len(counts), glob.intcomp

if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    print(main(n))
