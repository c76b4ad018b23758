# sys.version_info: CPython 3.11's struct sequence (agc follows CPython
# 3.11.2): printed as sys.version_info(...), indexed, sliced, unpacked,
# compared with tuples both ways, read by field. Expected: CPython 3.11.2's
# output.
import sys

print(sys.version_info)
print(sys.version_info[0], sys.version_info[1], sys.version_info[:2], sys.version_info[-2])
print(sys.version_info.major, sys.version_info.minor, sys.version_info.micro, sys.version_info.releaselevel)
print(sys.version_info >= (3, 8), sys.version_info < (3, 12), sys.version_info > (3, 11), (3, 9) <= sys.version_info)
print(sys.version_info[:2] == (3, 11), len(sys.version_info), tuple(sys.version_info))
major, minor, micro, level, serial = sys.version_info
print(major, minor, micro, level, serial)
if sys.version_info < (3, 7):
    print("old python")
else:
    print("python %d.%d" % sys.version_info[:2])
print(sys.version.split()[0])
try:
    sys.version_info < 3
except TypeError as e:
    print("TypeError:", e)
