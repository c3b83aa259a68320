#!/usr/bin/env bash
# Build the board twin's images from source: MicroPython's rp2 port for the Raspberry Pi Pico
# (RPI_PICO) and the RP2040's B1 bootrom, into a cache outside the repository, keyed by version.
#
#   tools/build-pico-image.sh            build (or find) the images, print the folder they are in
#   tools/build-pico-image.sh --where    print that folder only, build nothing
#
# Nothing third-party is committed: each source is a git repository, given by an environment
# variable (a local clone or bare repository, or a URL), cloned from its upstream by default.
#   MICROPYTHON_GIT    micropython/micropython     (tag v1.28.0; its submodules at the commits it pins:)
#   PICO_SDK_GIT       raspberrypi/pico-sdk        (2.2.0)
#   TINYUSB_GIT        hathach/tinyusb
#   MBEDTLS_GIT        Mbed-TLS/mbedtls            (3.6.2)
#   MICROPYTHON_LIB_GIT micropython/micropython-lib
#   PICOTOOL_GIT       raspberrypi/picotool        (2.2.0, the host tool pico-sdk 2.x needs; built without libusb)
#   RP2040JS_GIT       wokwi/rp2040js              (its demo/bootrom.ts holds the B1 bootrom's words)
#   CLUE_PICO_CACHE    where images go (default ~/.cache/clue-companion/pico)
# Needs git, cmake, make, python3 and Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi and
# libstdc++-arm-none-eabi-newlib (installed here with apt-get when run as root). About 4 minutes on 2 cores.
set -euo pipefail

MICROPYTHON_TAG=v1.28.0
PICOTOOL_TAG=2.2.0
RP2040JS_COMMIT=7701ee065f50a04380f81361befd754810cb9e28  # rp2040js 1.3.3; bootrom B1 (pico-bootrom 00a4a191)
CACHE=${CLUE_PICO_CACHE:-${HOME}/.cache/clue-companion/pico}
OUT="$CACHE/micropython-$MICROPYTHON_TAG-rpi_pico"

if [ "${1:-}" = "--where" ]; then echo "$OUT"; exit 0; fi
if [ -f "$OUT/firmware.bin" ] && [ -f "$OUT/bootrom.bin" ]; then echo "$OUT"; exit 0; fi

say() { echo "build-pico-image: $*" >&2; }
fail() { say "$*"; exit 1; }

need=()
command -v arm-none-eabi-gcc >/dev/null || need+=(gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib)
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(build-essential)
if [ ${#need[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || fail "missing ${need[*]}: install them (Debian: sudo apt-get install ${need[*]})"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

WORK="$CACHE/work-$MICROPYTHON_TAG"
rm -rf "$WORK"
mkdir -p "$WORK/git" "$OUT.tmp"

# A repository as a bare clone in the work folder (a local one is used where it lies).
repo() {  # NAME VAR DEFAULT_URL -> prints a git dir
    local name=$1 source=$2
    if [ -d "$source" ] && git --git-dir="$source" rev-parse --git-dir >/dev/null 2>&1; then
        git --git-dir="$source" rev-parse --absolute-git-dir
    elif [ -d "$source/.git" ]; then
        echo "$source/.git"
    else
        say "cloning $source"
        git clone --quiet --bare "$source" "$WORK/git/$name.git" || fail "could not clone $source: set ${3} to a local copy"
        echo "$WORK/git/$name.git"
    fi
}

# Files of COMMIT into DEST, leaving out blobs a partial snapshot lacks (none the build reads).
export_tree() {  # GITDIR COMMIT DEST
    local gitdir=$1 commit=$2 dest=$3 path
    local excludes=()
    mkdir -p "$dest"
    while IFS= read -r path; do
        excludes+=(":(exclude)$path")
        say "left out (absent from the snapshot): $path"
    done < <(git --git-dir="$gitdir" ls-tree -r "$commit" | python3 -c '
import subprocess, sys
entries = [line.rstrip("\n").split(None, 3) for line in sys.stdin]
blobs = [(e[2], e[3]) for e in entries if e[1] == "blob"]
check = subprocess.run(["git", "--git-dir", sys.argv[1], "cat-file", "--batch-check=%(objectname)"],
                       input="".join(sha + "\n" for sha, _ in blobs), capture_output=True, text=True).stdout.split("\n")
for (sha, path), answer in zip(blobs, check):
    if answer.endswith("missing"):
        print(path)' "$gitdir")
    # git still names each left-out blob on stderr ("invalid object"); shown only if the export fails.
    if ! git --git-dir="$gitdir" archive --format=tar "$commit" -- . "${excludes[@]}" 2>"$WORK/archive.err" \
            | tar -x -C "$dest"; then
        cat "$WORK/archive.err" >&2
        fail "could not export $commit from $gitdir"
    fi
}

submodule_commit() {  # GITDIR COMMIT PATH
    git --git-dir="$1" ls-tree "$2" "$3" | awk '{print $3}'
}

MP_GIT=$(repo micropython "${MICROPYTHON_GIT:-https://github.com/micropython/micropython.git}" MICROPYTHON_GIT)
SDK_GIT=$(repo pico-sdk "${PICO_SDK_GIT:-https://github.com/raspberrypi/pico-sdk.git}" PICO_SDK_GIT)
TUSB_GIT=$(repo tinyusb "${TINYUSB_GIT:-https://github.com/hathach/tinyusb.git}" TINYUSB_GIT)
MBED_GIT=$(repo mbedtls "${MBEDTLS_GIT:-https://github.com/Mbed-TLS/mbedtls.git}" MBEDTLS_GIT)
MPLIB_GIT=$(repo micropython-lib "${MICROPYTHON_LIB_GIT:-https://github.com/micropython/micropython-lib.git}" MICROPYTHON_LIB_GIT)
PT_GIT=$(repo picotool "${PICOTOOL_GIT:-https://github.com/raspberrypi/picotool.git}" PICOTOOL_GIT)
JS_GIT=$(repo rp2040js "${RP2040JS_GIT:-https://github.com/wokwi/rp2040js.git}" RP2040JS_GIT)

MP=$WORK/micropython
say "exporting MicroPython $MICROPYTHON_TAG and the submodules it pins"
export_tree "$MP_GIT" "$MICROPYTHON_TAG" "$MP"
export_tree "$SDK_GIT" "$(submodule_commit "$MP_GIT" "$MICROPYTHON_TAG" lib/pico-sdk)" "$MP/lib/pico-sdk"
export_tree "$TUSB_GIT" "$(submodule_commit "$MP_GIT" "$MICROPYTHON_TAG" lib/tinyusb)" "$MP/lib/tinyusb"
export_tree "$MBED_GIT" "$(submodule_commit "$MP_GIT" "$MICROPYTHON_TAG" lib/mbedtls)" "$MP/lib/mbedtls"
export_tree "$MPLIB_GIT" "$(submodule_commit "$MP_GIT" "$MICROPYTHON_TAG" lib/micropython-lib)" "$MP/lib/micropython-lib"
# picotool's build wants pico-sdk's own mbedtls: MicroPython pins the same commit.
rmdir "$MP/lib/pico-sdk/lib/mbedtls" 2>/dev/null || true
ln -sfn ../../mbedtls "$MP/lib/pico-sdk/lib/mbedtls"

say "building picotool $PICOTOOL_TAG (host tool, no USB)"
export_tree "$PT_GIT" "$PICOTOOL_TAG" "$WORK/picotool"
if ! { cmake -S "$WORK/picotool" -B "$WORK/picotool-build" -DPICO_SDK_PATH="$MP/lib/pico-sdk" \
        -DPICOTOOL_NO_LIBUSB=1 -DPICOTOOL_FLAT_INSTALL=1 -DCMAKE_INSTALL_PREFIX="$WORK/picotool-install" \
        && make -C "$WORK/picotool-build" -j"$(nproc)" install; } >"$WORK/picotool.log" 2>&1; then
    fail "picotool failed to build: see $WORK/picotool.log"
fi

say "building mpy-cross and the rp2 port for RPI_PICO"
make -C "$MP/mpy-cross" -j"$(nproc)" >"$WORK/mpy-cross.log" 2>&1 || fail "mpy-cross failed: see $WORK/mpy-cross.log"
make -C "$MP/ports/rp2" BOARD=RPI_PICO -j"$(nproc)" \
    CMAKE_ARGS="-Dpicotool_DIR=$WORK/picotool-install/picotool" >"$WORK/rp2.log" 2>&1 \
    || fail "the rp2 port failed to build: see $WORK/rp2.log"
cp "$MP/ports/rp2/build-RPI_PICO/firmware.bin" "$MP/ports/rp2/build-RPI_PICO/firmware.uf2" "$OUT.tmp/"

say "extracting the RP2040 B1 bootrom from rp2040js $RP2040JS_COMMIT"
git --git-dir="$JS_GIT" show "$RP2040JS_COMMIT:demo/bootrom.ts" | python3 -c '
import re, struct, sys
words = [int(w, 16) for w in re.findall(r"0x[0-9a-fA-F]{8}", sys.stdin.read())]
if len(words) != 4096:
    sys.exit(f"bootrom.ts holds {len(words)} words, not 4096")
sys.stdout.buffer.write(struct.pack("<4096I", *words))' >"$OUT.tmp/bootrom.bin"

cat >"$OUT.tmp/VERSION" <<EOF
micropython $MICROPYTHON_TAG $(git --git-dir="$MP_GIT" rev-parse "$MICROPYTHON_TAG^{commit}") board RPI_PICO
pico-sdk $(submodule_commit "$MP_GIT" "$MICROPYTHON_TAG" lib/pico-sdk)
tinyusb $(submodule_commit "$MP_GIT" "$MICROPYTHON_TAG" lib/tinyusb)
picotool $PICOTOOL_TAG
bootrom rp2040js $RP2040JS_COMMIT demo/bootrom.ts (B1)
built $(date -u +%Y-%m-%dT%H:%M:%SZ) with $(arm-none-eabi-gcc --version | head -1)
EOF
rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
rm -rf "$WORK"
echo "$OUT"
