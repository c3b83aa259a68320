#!/bin/bash
# The Pi image, booted: its kernel, initramfs and disk under qemu-system-aarch64 (machine virt,
# Cortex-A53, TCG: no KVM), with the image's own cmdline.txt (its console moved to the virt
# machine's serial port), checked step by step, each with its time:
#   - systemd reaches multi-user; clue-companion.service is active with its unit unchanged
#     (no drop-in, no directive loosened); `systemd-analyze security` scores it;
#   - the first-boot units: settings from the boot file, the network, the root grown to the disk;
#   - the page answers through a forwarded port; the host logs in with the boot file's PIN and
#     opens a game, a phone joins and plays a turn (the real HTTP API);
#   - a virtual board (on this machine) appears in the guest as a USB CDC-ACM board at boot, and
#     `clue-companion doctor` passes its board, store and web checks;
#   - the card's writes per action (/sys/block/vda/stat);
#   - power cuts: qemu SIGKILLed at 10 moments while phones play, the disk with cache=unsafe;
#     after each boot the file system is clean or repaired at boot, the store passes
#     integrity_check, and the game has every acknowledged action, none twice;
#   - a clean shutdown, then e2fsck -fn of the root on this machine.
# Test-only pieces (a command runner and the board's USB bridge on virtio-serial, in
# tools/pi/image/test/) go into a COPY of the image, never into the image itself.
#   sudo tools/test-image-qemu.sh [IMAGE]      (no IMAGE: builds one with tools/build-image.sh)
#   ... 2>&1 | tee /tmp/test-image.log
# Environment: CLUE_IMAGE_CUTS (10), CLUE_IMAGE_TEST_DIR (work directory, kept when set),
# CLUE_IMAGE_CACHE (build-image.sh's cache). docs/install.md says what this proves and what not.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO
readonly TESTDIR=$REPO/tools/pi/image/test
readonly PIN=739216
readonly HOST_PACKAGES=(qemu-system-arm qemu-utils mtools e2fsprogs fdisk python3 xz-utils)
CUTS=${CLUE_IMAGE_CUTS:-10}
BOOT_LIMIT=${CLUE_IMAGE_BOOT_LIMIT:-900}   # seconds for a boot to reach the page, at most
WORK=""
KEEP=no
QEMU_PID=""
BOARD_PID=""
PORT=0
STEPS=()
FAILURES=()
T0=$SECONDS

say() { printf '\n=== [%4ss] %s\n' $((SECONDS - T0)) "$*"; }
note() { printf '    %s\n' "$*"; }
fail() { printf 'test-image-qemu.sh: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

# timed NAME COMMAND...: runs it, prints and records its duration and result; never stops the script.
timed() {
    local name=$1 start=$SECONDS status=0
    shift
    printf '\n--- [%4ss] %s\n' $((SECONDS - T0)) "$name"
    "$@" || status=$?
    local result=ok
    ((status == 0)) || { result="FAILED (exit $status)"; FAILURES+=("$name"); }
    STEPS+=("$(printf '%-58s %5ss  %s' "$name" $((SECONDS - start)) "$result")")
    printf -- '--- [%4ss] %s: %s in %ss\n' $((SECONDS - T0)) "$name" "$result" $((SECONDS - start))
    return 0
}

cleanup() {
    stop_qemu
    if [[ -n $BOARD_PID ]]; then kill "$BOARD_PID" 2>/dev/null || true; wait "$BOARD_PID" 2>/dev/null || true; fi
    if [[ -n $WORK && $KEEP == no ]]; then rm -rf "$WORK"; fi
}

stop_qemu() {
    if [[ -n $QEMU_PID ]]; then
        kill -KILL "$QEMU_PID" 2>/dev/null || true
        wait "$QEMU_PID" 2>/dev/null || true
        QEMU_PID=""
    fi
}

host_tools() {
    local missing=() pkg
    for pkg in "${HOST_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if ((${#missing[@]})); then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
    qemu-system-aarch64 --version | head -1
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# partition N's start and size in 512-byte sectors, from the image's MBR
partition() {
    sfdisk --dump "$1" | sed -n "s/^[^ ]*$2 : start= *\([0-9]*\), size= *\([0-9]*\).*/\1 \2/p"
}

# ---- the test copy -------------------------------------------------------------------------------

prepare_copy() {
    local image=$1 boot_start root_start root_size fat kernel initrd
    cp --sparse=always "$image" "$WORK/disk.img"
    read -r boot_start _ < <(partition "$WORK/disk.img" 1)
    read -r root_start root_size < <(partition "$WORK/disk.img" 2)
    [[ -n $boot_start && -n $root_start ]] || { echo "no partitions 1 and 2 in $image"; return 1; }
    fat="$WORK/disk.img@@$((boot_start * 512))"
    mdir -b -i "$fat" ::/ | sed 's|^::/||' >"$WORK/boot-files"
    kernel=$(grep -m1 '^vmlinuz' "$WORK/boot-files") || { echo "no vmlinuz in the boot partition"; return 1; }
    initrd=$(grep -m1 '^initrd.img' "$WORK/boot-files") || { echo "no initrd.img in the boot partition"; return 1; }
    mcopy -n -i "$fat" "::/$kernel" "$WORK/vmlinuz"
    mcopy -n -i "$fat" "::/$initrd" "$WORK/initrd.img"
    mcopy -n -i "$fat" ::/cmdline.txt "$WORK/cmdline.txt"
    mcopy -n -i "$fat" ::/config.txt "$WORK/config.txt"
    note "boot partition: $(wc -l <"$WORK/boot-files") files; kernel $kernel, initramfs $initrd"
    note "cmdline.txt: $(cat "$WORK/cmdline.txt")"
    # The boot file as a family would edit it: the host PIN set, no Wi-Fi (so: the hotspot, or
    # under qemu, which has no Wi-Fi device, the wired network).
    mcopy -n -i "$fat" ::/clue-companion.toml "$WORK/boot-file.toml" ||
        { echo "no clue-companion.toml in the boot partition"; return 1; }
    sed -i "/^\[companion\]/,/^\[/ s/^pin = .*/pin = \"$PIN\"/" "$WORK/boot-file.toml"
    grep -q "^pin = \"$PIN\"" "$WORK/boot-file.toml" || { echo "could not set the PIN in the boot file"; return 1; }
    mcopy -o -i "$fat" "$WORK/boot-file.toml" ::/clue-companion.toml
    # The test-only units, written into the root file system with debugfs (no mount, no loop).
    dd if="$WORK/disk.img" of="$WORK/root.ext4" bs=512 skip="$root_start" count="$root_size" status=none
    debugfs -w "$WORK/root.ext4" -f - >/dev/null <<EOF
mkdir /etc/systemd/system/sysinit.target.wants
write $TESTDIR/clue-test-agent /usr/local/sbin/clue-test-agent
write $TESTDIR/clue-test-board /usr/local/sbin/clue-test-board
write $TESTDIR/clue-test-agent.service /etc/systemd/system/clue-test-agent.service
write $TESTDIR/clue-test-board.service /etc/systemd/system/clue-test-board.service
symlink /etc/systemd/system/sysinit.target.wants/clue-test-agent.service /etc/systemd/system/clue-test-agent.service
symlink /etc/systemd/system/multi-user.target.wants/clue-test-board.service /etc/systemd/system/clue-test-board.service
sif /usr/local/sbin/clue-test-agent mode 0100755
sif /usr/local/sbin/clue-test-board mode 0100755
sif /usr/local/sbin/clue-test-agent uid 0
sif /usr/local/sbin/clue-test-board uid 0
EOF
    debugfs -R "ls -l /etc/systemd/system/sysinit.target.wants" "$WORK/root.ext4" 2>/dev/null | grep -q clue-test-agent ||
        { echo "debugfs did not add the test units"; return 1; }
    e2fsck -fy "$WORK/root.ext4" >/dev/null || true
    e2fsck -fn "$WORK/root.ext4" >/dev/null || { echo "the root is damaged after adding the test units"; return 1; }
    dd if="$WORK/root.ext4" of="$WORK/disk.img" bs=512 seek="$root_start" conv=notrunc,sparse status=none
    rm -f "$WORK/root.ext4"
    ROOT_SECTORS=$root_size
    # A card larger than the image: the first boot must grow the root into the rest.
    truncate -s +1G "$WORK/disk.img"
    note "test copy: $WORK/disk.img ($(($(stat -c %s "$WORK/disk.img") / 1048576)) MiB, root $((root_size / 2048)) MiB)"
}

# ---- the virtual board, qemu and the agent --------------------------------------------------------

companion_cli() {
    if [[ -x $REPO/.venv/bin/clue-companion ]]; then
        echo "$REPO/.venv/bin/clue-companion"
    elif command -v clue-companion >/dev/null; then
        command -v clue-companion
    fi
}

start_board() {
    local cli
    cli=$(companion_cli)
    [[ -n $cli ]] || { echo "no clue-companion on this machine (make venv) for the virtual board"; return 1; }
    mkfifo "$WORK/board-in"
    # The board's console reads commands from the fifo; kept open by this shell (fd 7).
    "$cli" virtual-board --link "$WORK/board-pty" <"$WORK/board-in" >"$WORK/board.out" 2>"$WORK/board.err" &
    BOARD_PID=$!
    exec 7>"$WORK/board-in"
    local tries=0
    while [[ ! -e $WORK/board-pty ]] && ((tries++ < 100)); do sleep 0.1; done
    [[ -e $WORK/board-pty ]] || { cat "$WORK/board.err"; return 1; }
    note "virtual board on $(readlink "$WORK/board-pty") (process $BOARD_PID): $(head -1 "$WORK/board.err")"
}

BOOTS=0
start_qemu() {  # start_qemu: boots the test copy; qemu runs in the background
    local cmdline board=()
    BOOTS=$((BOOTS + 1))
    # The image's own command line, its consoles replaced by the virt machine's PL011 port.
    # The guest's network is qemu's user mode with restrict=on: it reaches nothing outside
    # (no NTP, no DNS beyond qemu); only the forwarded port comes in.
    cmdline=$(sed -e 's/console=[^ ]*//g' -e 's/  */ /g' "$WORK/cmdline.txt")
    if [[ -e $WORK/board-pty ]]; then
        # shellcheck disable=SC2054 # qemu's options take commas
        board=(-chardev "serial,id=board,path=$(readlink -f "$WORK/board-pty")"
            -device virtserialport,chardev=board,name=org.clue.board)
    fi
    rm -f "$WORK/agent.sock"
    qemu-system-aarch64 -M virt -cpu cortex-a53 -smp 2 -m 1024 -accel tcg,thread=multi \
        -display none -monitor none -serial "file:$WORK/console-$BOOTS.log" -no-reboot \
        -kernel "$WORK/vmlinuz" -initrd "$WORK/initrd.img" -append "$cmdline console=ttyAMA0" \
        -drive "if=none,id=disk,file=$WORK/disk.img,format=raw,cache=unsafe" -device virtio-blk-pci,drive=disk \
        -netdev "user,id=net,restrict=on,hostfwd=tcp:127.0.0.1:$PORT-:8000" -device virtio-net-pci,netdev=net,romfile= \
        -device virtio-rng-pci -device virtio-serial-pci \
        -chardev "socket,id=agent,path=$WORK/agent.sock,server=on,wait=off" \
        -device virtserialport,chardev=agent,name=org.clue.agent "${board[@]}" \
        >"$WORK/qemu-$BOOTS.log" 2>&1 &
    QEMU_PID=$!
    BOOT_STARTED=$SECONDS
}

agent() {  # agent TIMEOUT COMMAND: runs COMMAND as root in the guest; prints its output; its exit status
    python3 "$TESTDIR/agent_client.py" "$WORK/agent.sock" "$1" "$2"
}

wait_for() {  # wait_for SECONDS WHAT COMMAND...: polls COMMAND until it succeeds, at most SECONDS
    local limit=$1 what=$2 start=$SECONDS
    shift 2
    until "$@" >/dev/null 2>&1; do
        if ((SECONDS - start >= limit)); then echo "timed out after ${limit}s waiting for $what"; return 1; fi
        if [[ -n $QEMU_PID ]] && ! kill -0 "$QEMU_PID" 2>/dev/null; then echo "qemu exited while waiting for $what"; return 1; fi
        sleep 2
    done
    note "$what after $((SECONDS - BOOT_STARTED))s from power-on"
}

page_answers() { python3 -c "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:$PORT/', timeout=10).status != 200)"; }
service_active() { agent 20 'systemctl is-active clue-companion.service' | grep -qx active; }
multi_user() { agent 20 'systemctl is-active multi-user.target' | grep -qx active; }

boot() {  # boot: power on and wait for the page (bounded)
    start_qemu
    wait_for "$BOOT_LIMIT" "the agent" agent 10 true || return 1
    wait_for "$BOOT_LIMIT" "multi-user.target" multi_user || return 1
    wait_for 300 "clue-companion.service active" service_active || return 1
    wait_for 300 "the page through port $PORT" page_answers || return 1
    BOOT_TO_PAGE=$((SECONDS - BOOT_STARTED))
}

# ---- the checks ----------------------------------------------------------------------------------

check_systemd() {
    agent 60 'systemctl is-system-running; systemd-analyze time; systemctl --failed --no-legend'
    local failed
    failed=$(agent 30 'systemctl --failed --no-legend --plain | grep -v clue-test || true')
    if [[ -n $failed ]]; then echo "failed units: $failed"; return 1; fi
}

check_unit_unchanged() {
    # The unit systemd runs is the repository's, byte for byte, with no drop-in.
    agent 30 'systemctl cat clue-companion.service | tail -n +2' >"$WORK/unit-running"
    diff -u "$REPO/tools/pi/clue-companion.service" "$WORK/unit-running" || return 1
    local dropins
    dropins=$(agent 30 'systemctl show -P DropInPaths clue-companion.service')
    [[ -z $dropins ]] || { echo "drop-ins: $dropins"; return 1; }
    agent 30 'systemctl show -p User,ProtectSystem,CapabilityBoundingSet,DevicePolicy,SystemCallFilter,NoNewPrivileges clue-companion.service | cut -c1-160'
}

check_security() {
    agent 120 'systemd-analyze security --no-pager clue-companion.service' >"$WORK/security.txt"
    tail -3 "$WORK/security.txt"
    SECURITY=$(sed -n 's/.*Overall exposure level for clue-companion.service: *//p' "$WORK/security.txt")
    [[ -n $SECURITY ]]
}

check_first_boot() {
    agent 30 'systemctl is-active clue-first-boot.service clue-network.service clue-grow-root.service clue-welcome.service'
    agent 30 'cat /run/clue-companion/reach.json' >"$WORK/reach.json"
    cat "$WORK/reach.json"
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(not (r["mode"] == "wired" and r["addresses"]))' \
        "$WORK/reach.json" || { echo "reach.json: not the wired network with an address"; return 1; }
    agent 30 "grep -q '^pin = \"$PIN\"' /etc/clue-companion.toml" || { echo "the boot file's PIN is not in /etc/clue-companion.toml"; return 1; }
    # The first boot filled the hotspot password into the boot file.
    agent 30 'grep -A4 "^\[hotspot\]" /boot/firmware/clue-companion.toml | grep -E "^password = \".{8,}\""' >/dev/null ||
        { echo "no hotspot password written into the boot file"; return 1; }
}

check_grown() {
    local size
    agent 30 'df -h / | tail -1; journalctl -b -u clue-grow-root --no-pager | tail -4'
    size=$(agent 30 'df -B1M --output=size / | tail -1 | tr -d " "')
    ((size > ROOT_SECTORS / 2048 + 800)) || { echo "root $size MiB: not grown into the extra GiB"; return 1; }
}

check_locked() {
    agent 30 'passwd -S root; ss -ltnH' >"$WORK/locked.txt"
    cat "$WORK/locked.txt"
    grep -q '^root L' "$WORK/locked.txt" || { echo "root has a password"; return 1; }
    ! grep -q ':22 ' "$WORK/locked.txt" || { echo "something listens on port 22"; return 1; }
}

phones() { CLUE_PIN=$PIN timeout 600 python3 "$TESTDIR/phones.py" "http://127.0.0.1:$PORT" "$@"; }

check_board() {
    agent 30 'ls -l /dev/ttyACM0 /dev/clue-board; journalctl -b -u clue-test-board --no-pager | tail -3'
    agent 60 'clue-companion doctor --json' >"$WORK/doctor.json" || true
    python3 - "$WORK/doctor.json" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
report = json.loads(text[text.index("{"):])
findings = report.get("findings", report if isinstance(report, list) else [])
status = {f["check"]: f["status"] for f in findings}
for f in findings:
    print(f"    doctor {f['status']:4} {f['check']}: {f.get('text', '')}")
bad = [name for name in ("board", "store", "web") if status.get(name) != "ok"]
sys.exit(1 if bad else 0)
PY
}

writes() { agent 20 "awk '{print \$7}' /sys/block/vda/stat"; }  # sectors written since boot

check_writes() {  # the card's writes for 30 actions, and while idle
    local before after idle
    before=$(writes)
    phones play 30 "$WORK/acks.log" || return 1
    after=$(writes)
    WRITES_PER_ACTION=$(((after - before) * 512 / 30 / 1024))
    note "30 actions: $(((after - before) / 2)) KiB written, ${WRITES_PER_ACTION} KiB an action"
    before=$(writes)
    sleep 60
    idle=$(writes)
    WRITES_IDLE=$(((idle - before) / 2))
    note "idle for 60 s: $WRITES_IDLE KiB written"
}

store_record() {  # the store's check and the game's action lines, as JSON
    agent 60 "/usr/bin/python3 -c '
import json, sqlite3
db = sqlite3.connect(\"file:/var/lib/clue-companion/companion.db?mode=ro\", uri=True)
check = db.execute(\"PRAGMA integrity_check\").fetchall()
game = db.execute(\"SELECT max(id) FROM games\").fetchone()[0]
lines = [line for (line,) in db.execute(\"SELECT line FROM actions WHERE game_id = ? ORDER BY number\", (game,))]
print(json.dumps({\"integrity\": [row[0] for row in check], \"game\": game, \"lines\": lines}))
'"
}

check_after_cut() {  # N: the file system, the store and the game after cut N
    local n=$1
    agent 30 'cat /run/initramfs/fsck.log 2>/dev/null; journalctl -b -k --no-pager -o cat | grep -E "EXT4-fs|recovery" | head -5' >"$WORK/fsck-$n.txt"
    sed 's/^/    /' "$WORK/fsck-$n.txt"
    if grep -qiE "UNEXPECTED INCONSISTENCY|EXT4-fs error|remount.*read-only" "$WORK/fsck-$n.txt"; then
        echo "the file system needed more than the journal"
        return 1
    fi
    agent 20 'findmnt -no OPTIONS /' | grep -q '^rw' || { echo "the root is not mounted read-write"; return 1; }
    local root=clean verdict status=0
    if grep -q "recovering journal" "$WORK/fsck-$n.txt"; then root="journal replayed by fsck"; fi
    if grep -q "FILE SYSTEM WAS MODIFIED" "$WORK/fsck-$n.txt"; then root="repaired by fsck"; fi
    store_record >"$WORK/store-$n.json" || { echo "could not read the store"; return 1; }
    verdict=$(python3 "$TESTDIR/compare_record.py" "$WORK/store-$n.json" "$WORK/acks.log" \
        "$WORK/acks.log.inflight" "$n") || status=1
    echo "$verdict; root file system: $root" | tee -a "$WORK/cuts.txt"
    ((status == 0)) || return 1
    # The acknowledged list now includes the action in flight if the store kept it.
    python3 "$TESTDIR/compare_record.py" --adopt "$WORK/store-$n.json" "$WORK/acks.log" "$WORK/acks.log.inflight"
}

power_cut() {  # N: phones play; qemu killed after some acknowledged actions and a delay; boot again
    local n=$1 acked target delay
    acked=$(wc -l <"$WORK/acks.log")
    target=$((acked + 2 + n % 5))
    delay=$(printf '0.%03d' $(((n * 137) % 1000)))
    phones play 60 "$WORK/acks.log" >"$WORK/play-$n.log" 2>&1 &
    local player=$! start=$SECONDS
    until (($(wc -l <"$WORK/acks.log") >= target)); do
        if ((SECONDS - start > 300)); then echo "no progress: $(cat "$WORK/play-$n.log")"; kill "$player"; return 1; fi
        if ! kill -0 "$player" 2>/dev/null; then echo "the phones stopped: $(cat "$WORK/play-$n.log")"; return 1; fi
        sleep 0.05
    done
    sleep "$delay"
    kill -KILL "$QEMU_PID"
    wait "$QEMU_PID" 2>/dev/null || true
    QEMU_PID=""
    wait "$player" 2>/dev/null || true
    note "cut $n: power off ${delay}s after acknowledged action $(wc -l <"$WORK/acks.log")$([[ -s $WORK/acks.log.inflight ]] && echo ", one in flight: $(cat "$WORK/acks.log.inflight")")"
    boot || return 1
    note "booted again: page after ${BOOT_TO_PAGE}s"
    check_after_cut "$n"
}

clean_shutdown() {
    agent 10 'systemctl poweroff' || true
    local waited=0
    while kill -0 "$QEMU_PID" 2>/dev/null && ((waited < 120)); do sleep 1; waited=$((waited + 1)); done
    if kill -0 "$QEMU_PID" 2>/dev/null; then echo "no power-off within 120s"; stop_qemu; return 1; fi
    wait "$QEMU_PID" 2>/dev/null || true
    QEMU_PID=""
    local start size
    read -r start size < <(partition "$WORK/disk.img" 2)
    dd if="$WORK/disk.img" of="$WORK/root.ext4" bs=512 skip="$start" count="$size" status=none
    e2fsck -fn "$WORK/root.ext4"
}

# ---- main ----------------------------------------------------------------------------------------

main() {
    local image=""
    while (($#)); do
        case $1 in
            -h | --help) usage; exit 0 ;;
            -*) usage >&2; fail "unknown option: $1" ;;
            *) image=$1 ;;
        esac
        shift
    done
    [[ $EUID -eq 0 ]] || fail "run it as root (it installs qemu, and builds the image when none is given)"
    if [[ -n ${CLUE_IMAGE_TEST_DIR:-} ]]; then
        WORK=$CLUE_IMAGE_TEST_DIR
        KEEP=yes
        mkdir -p "$WORK"
        rm -f "$WORK"/{disk.img,acks.log,acks.log.inflight,cuts.txt,board-in,board-pty}
    else
        WORK=$(mktemp -d /var/tmp/clue-image-test.XXXXXX)
    fi
    trap cleanup EXIT
    : >"$WORK/acks.log"
    : >"$WORK/cuts.txt"
    timed "host tools (qemu-system-arm, mtools, e2fsprogs)" host_tools
    if [[ -z $image ]]; then
        image=$WORK/clue-companion.img
        timed "build the image (tools/build-image.sh)" env CLUE_IMAGE_XZ=no "$REPO/tools/build-image.sh" "$image"
        [[ -f $image ]] || { summary; exit 1; }
    fi
    [[ -f $image ]] || fail "no image $image"
    note "image: $image ($(($(stat -c %s "$image") / 1048576)) MiB)"
    timed "test copy: boot file with a PIN, test-only units" prepare_copy "$image"
    [[ ${#FAILURES[@]} -eq 0 ]] || { summary; exit 1; }
    PORT=$(free_port)
    timed "virtual board on a pty" start_board
    timed "first boot: agent, multi-user, service, page" boot
    [[ ${#FAILURES[@]} -eq 0 ]] || { tail -40 "$WORK/console-1.log"; summary; exit 1; }
    FIRST_BOOT_TO_PAGE=$BOOT_TO_PAGE
    timed "systemd: multi-user, no failed unit" check_systemd
    timed "clue-companion.service: the repository's unit, no drop-in" check_unit_unchanged
    timed "systemd-analyze security clue-companion" check_security
    timed "first boot: boot file, network (wired), reach.json" check_first_boot
    timed "first boot: root grown to the disk" check_grown
    timed "no password, nothing on port 22" check_locked
    timed "host logs in with the boot file's PIN, opens a game" phones setup
    timed "a phone joins and plays a turn" phones turn "$WORK/acks.log"
    timed "virtual board as /dev/ttyACM0; doctor: board, store, web" check_board
    timed "writes per action (30 actions) and idle" check_writes
    local n
    for ((n = 1; n <= CUTS; n++)); do
        timed "power cut $n: fsck, integrity_check, every action once" power_cut "$n"
        if [[ -z $QEMU_PID ]]; then break; fi
    done
    timed "clean shutdown; e2fsck -fn of the root" clean_shutdown
    summary
    ((${#FAILURES[@]} == 0))
}

summary() {
    say "summary ($((SECONDS - T0)) s in all)"
    printf '  %s\n' "${STEPS[@]}"
    echo "  first boot to page: ${FIRST_BOOT_TO_PAGE:-?} s; systemd-analyze security: ${SECURITY:-?}"
    echo "  writes: ${WRITES_PER_ACTION:-?} KiB an action, ${WRITES_IDLE:-?} KiB in 60 s idle"
    if [[ -s $WORK/cuts.txt ]]; then echo "  power cuts:"; sed 's/^/    /' "$WORK/cuts.txt"; fi
    if ((${#FAILURES[@]})); then
        printf '  FAILED: %s\n' "${FAILURES[@]}"
    else
        echo "  all checks passed"
    fi
}

main "$@"
