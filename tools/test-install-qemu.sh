#!/bin/bash
# The Pi installer, tested for real: an arm64 Debian root file system (debootstrap) run under
# qemu-user-static in a chroot, tools/install-pi.sh run in it twice (the second run, with
# --kiosk, is an upgrade that must keep the config and the games), the unit checked with
# `systemd-analyze verify`, `clue-companion doctor` run (no board here: expect non-zero),
# then --uninstall. Run as root on a Debian/Ubuntu PC:
#   sudo tools/test-install-qemu.sh [--arch arm64|armhf] [--suite bookworm|trixie] [--cache DIR]
#   ... 2>&1 | tee /tmp/qemu-install.log
# The debootstrapped base is cached in DIR (default $CLUE_QEMU_CACHE or /var/tmp/clue-qemu);
# each run works on a fresh copy of it. docs/install.md says what this proves and what not.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO
ARCH=arm64
SUITE=bookworm
CACHE=${CLUE_QEMU_CACHE:-/var/tmp/clue-qemu}
MIRROR=${CLUE_QEMU_MIRROR:-http://deb.debian.org/debian}
ROOT=""
MOUNTS=()
STEPS=()
FAILURES=()

say() { printf '\n=== %s\n' "$*"; }
fail() { printf 'test-install-qemu.sh: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

# timed NAME COMMAND...: runs it, records its duration and status; never stops the script.
timed() {
    local name=$1 start=$SECONDS status=0
    shift
    "$@" || status=$?
    STEPS+=("$(printf '%-44s %4ss  exit %s' "$name" $((SECONDS - start)) "$status")")
    return "$status"
}

in_root() {
    # A clean environment, but the host's pip settings (PIP_*), which the copied pip config
    # may rely on (find-links, certificates, timeouts).
    local pip_env=()
    mapfile -t pip_env < <(env | grep '^PIP_' || true)
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb "${pip_env[@]}" "$@"
}

mount_in_root() {  # mount_in_root TARGET MOUNT-ARGS...
    local target=$ROOT$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    MOUNTS+=("$target")
}

cleanup() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -R "${MOUNTS[i]}" 2>/dev/null || umount -R -l "${MOUNTS[i]}" || true
    done
}

host_tools() {
    local missing=() pkg
    for pkg in qemu-user-static debootstrap binfmt-support; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if ((${#missing[@]})); then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
    fi
    local qemu=aarch64
    [[ $ARCH == armhf ]] && qemu=arm
    if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    update-binfmts --enable "qemu-$qemu" || true
    grep -q '^enabled' "/proc/sys/fs/binfmt_misc/qemu-$qemu" ||
        fail "qemu-$qemu is not registered with binfmt_misc (update-binfmts --display qemu-$qemu)"
    echo "binfmt: $(head -2 "/proc/sys/fs/binfmt_misc/qemu-$qemu" | tr '\n' ' ')"
}

base_root() {
    local base=$CACHE/base-$SUITE-$ARCH
    if [[ -d $base ]]; then
        echo "cached base root file system: $base"
        return
    fi
    rm -rf "$base.partial"
    debootstrap --arch "$ARCH" --variant=minbase --include=ca-certificates "$SUITE" "$base.partial" "$MIRROR"
    mv "$base.partial" "$base"
}

fresh_root() {
    ROOT=$CACHE/root-$SUITE-$ARCH
    rm -rf "$ROOT"
    cp -a "$CACHE/base-$SUITE-$ARCH" "$ROOT"
    mount_in_root /proc -t proc proc
    mount_in_root /sys --rbind /sys
    mount_in_root /dev --rbind /dev
    mount --make-rslave "$ROOT/dev"
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # Package scripts must not start services in a chroot.
    printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
    chmod +x "$ROOT/usr/sbin/policy-rc.d"
}

# A Debian source file not limited to this machine's architecture.
debian_source() { [[ -s $1 ]] && grep -q debian "$1" && ! grep -qi 'Architectures: *amd64' "$1"; }

# The chroot reaches packages the way this machine does: its Debian sources (same suite
# only), its apt Acquire settings, its pip config and the local directories that config names.
same_sources() {
    local file codename
    codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
    if [[ $codename == "$SUITE" ]]; then
        : >"$ROOT/etc/apt/sources.list"
        for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
            debian_source "$file" || continue
            cp "$file" "$ROOT$file"
            echo "apt source: $file"
        done
    else
        echo "apt source: $MIRROR $SUITE (this machine runs ${codename:-another system})"
    fi
    for file in /etc/apt/apt.conf.d/*; do
        if grep -q 'Acquire' "$file" 2>/dev/null; then cp "$file" "$ROOT$file"; echo "apt setting: $file"; fi
    done
    local configs=() path
    for file in /etc/pip.conf /etc/xdg/pip/pip.conf /root/.config/pip/pip.conf /root/.pip/pip.conf; do
        if [[ -f $file ]]; then
            install -D -m 0644 "$file" "$ROOT$file"
            configs+=("$file")
            echo "pip config: $file"
        fi
    done
    # Files and directories named in that config or in PIP_*: files are copied, directories
    # mounted read-only (an index's .../simple with its parent, where its links point).
    while read -r path; do
        [[ $path == */simple ]] && path=${path%/simple}
        if [[ -f $path ]]; then
            install -D -m 0644 "$path" "$ROOT$path"
            echo "pip file: $path"
        elif [[ -d $path ]] && ! mountpoint -q "$ROOT$path"; then
            mount_in_root "$path" --bind -o ro "$path"
            echo "pip directory (read-only): $path"
        fi
    done < <({ cat "${configs[@]}" /dev/null; env | grep '^PIP_' || true; } |
        grep -oE "(file://)?/[^[:space:]\"',]+" | sed 's|^file://||' | sort -u)
}

copy_checkout() {
    mkdir -p "$ROOT/root/clue-companion"
    tar -C "$REPO" --exclude=./.venv --exclude=./.git --exclude=node_modules --exclude=__pycache__ \
        --exclude='*.egg-info' --exclude=.mypy_cache --exclude=.pytest_cache --exclude=.hypothesis \
        -cf - . | tar -C "$ROOT/root/clue-companion" -xf -
}

check() {  # check DESCRIPTION COMMAND...: a failed check is reported at the end
    local what=$1
    shift
    if "$@"; then
        echo "ok: $what"
    else
        echo "FAILED: $what"
        FAILURES+=("$what")
    fi
}

main() {
    while (($#)); do
        case $1 in
            --arch) ARCH=$2; shift ;;
            --suite) SUITE=$2; shift ;;
            --cache) CACHE=$2; shift ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; fail "unknown option: $1" ;;
        esac
        shift
    done
    [[ $ARCH == arm64 || $ARCH == armhf ]] || fail "--arch: arm64 or armhf"
    [[ $EUID -eq 0 ]] || fail "run it as root (debootstrap, chroot and mounts need it)"
    mkdir -p "$CACHE"
    trap cleanup EXIT
    local start=$SECONDS installer=/root/clue-companion/tools/install-pi.sh

    say "host: qemu-user-static, debootstrap, binfmt_misc"
    timed "host tools and binfmt" host_tools
    say "debootstrap --arch $ARCH $SUITE (cached in $CACHE)"
    timed "debootstrap (or the cached base)" base_root
    timed "fresh root, mounts" fresh_root
    say "package sources: the same as this machine's"
    timed "package sources" same_sources
    timed "copy the checkout" copy_checkout
    echo "chroot: $ROOT ($(in_root uname -m), $(in_root sed -n 's/^PRETTY_NAME=//p' /etc/os-release))"

    say "preparing the chroot: systemd (Raspberry Pi OS always has it; debootstrap's minbase does not)"
    timed "apt-get install systemd (test preparation)" in_root sh -c \
        'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends systemd' ||
        fail "could not install systemd in the chroot"

    say "install-pi.sh, first run"
    local first=0
    timed "install-pi.sh (first run)" in_root bash "$installer" || first=$?
    ((first == 0)) || FAILURES+=("the first run of install-pi.sh exited $first")

    # --recursive-errors=one: a warning about the unit (an unknown key, a bad value) fails too.
    say "systemd-analyze verify --recursive-errors=one /etc/systemd/system/clue-companion.service"
    local verify=0 said
    said=$(in_root systemd-analyze verify --recursive-errors=one \
        /etc/systemd/system/clue-companion.service 2>&1) || verify=$?
    STEPS+=("$(printf '%-44s %5s  exit %s' "systemd-analyze verify" "" "$verify")")
    echo "${said:-(no warnings)}"
    echo "systemd-analyze verify exited $verify"
    if ((verify != 0)) || [[ -n $said ]]; then
        FAILURES+=("systemd-analyze verify: exit $verify, ${said:-no output}")
    fi

    say "what the first run left"
    check "the service is enabled" in_root systemctl is-enabled clue-companion.service
    # shellcheck disable=SC2016 # expanded by the chroot's shell
    check "the user clue is in dialout gpio i2c spi" in_root sh -c 'id clue; for g in dialout gpio i2c spi; do id -nG clue | tr " " "\n" | grep -qx $g || exit 1; done'
    check "/usr/local/bin/clue-companion runs" in_root clue-companion --help
    # RPi.GPIO itself refuses to import off a Pi ("can only be run on a Raspberry Pi").
    check "the pi extra is installed (rpi-lgpio; lgpio and spidev load on $ARCH)" in_root \
        /opt/clue-companion/venv/bin/python -c 'import importlib.metadata as m, lgpio, spidev
print("rpi-lgpio", m.version("rpi-lgpio"), "lgpio", m.version("lgpio"), "spidev", m.version("spidev"), spidev.__file__)'
    check "the config names the store /var/lib/clue-companion/companion.db" in_root \
        grep -qx 'path = "/var/lib/clue-companion/companion.db"' /etc/clue-companion.toml
    check "the udev rule is installed" test -f "$ROOT/etc/udev/rules.d/99-clue-board.rules"
    check "the board's driver is loaded at boot" grep -qx cdc_acm "$ROOT/etc/modules-load.d/clue-companion.conf"
    in_root ls -ld /var/lib/clue-companion /etc/clue-companion.toml /opt/clue-companion/venv /usr/local/bin/clue-companion

    say "clue-companion doctor (no board attached: non-zero expected)"
    local doctor=0
    timed "clue-companion doctor" in_root clue-companion doctor || doctor=$?
    echo "clue-companion doctor exited $doctor"
    if ! in_root clue-companion doctor --help >/dev/null 2>&1; then
        echo "(this checkout has no \`clue-companion doctor\` command yet)"
    fi

    say "install-pi.sh --kiosk, second run (an upgrade: keeps the edited config and the store)"
    echo '# edited by test-install-qemu.sh' >>"$ROOT/etc/clue-companion.toml"
    echo 'not a real store' >"$ROOT/var/lib/clue-companion/companion.db"
    local before second=0
    before=$(sha256sum <"$ROOT/etc/clue-companion.toml")
    timed "install-pi.sh --kiosk (second run)" in_root bash "$installer" --kiosk || second=$?
    ((second == 0)) || FAILURES+=("the second run of install-pi.sh exited $second")
    check "the second run kept the edited config" test "$before" = "$(sha256sum <"$ROOT/etc/clue-companion.toml")"
    check "the second run kept the store" grep -q 'not a real store' "$ROOT/var/lib/clue-companion/companion.db"
    check "the service is still enabled" in_root systemctl is-enabled clue-companion.service
    check "the kiosk starts at desktop login" test -f "$ROOT/etc/xdg/autostart/clue-companion-kiosk.desktop" \
        -a -x "$ROOT/usr/local/bin/clue-companion-kiosk"

    say "install-pi.sh --uninstall (keeps the games and the config)"
    timed "install-pi.sh --uninstall" in_root bash "$installer" --uninstall || FAILURES+=("--uninstall failed")
    check "the code, the unit, the rule and the command are gone" test ! -e "$ROOT/opt/clue-companion" -a ! -e "$ROOT/etc/systemd/system/clue-companion.service" \
        -a ! -e "$ROOT/etc/udev/rules.d/99-clue-board.rules" -a ! -L "$ROOT/usr/local/bin/clue-companion" \
        -a ! -e "$ROOT/etc/xdg/autostart/clue-companion-kiosk.desktop"
    check "the store and the config are kept" test -f "$ROOT/var/lib/clue-companion/companion.db" -a -f "$ROOT/etc/clue-companion.toml"

    say "summary ($ARCH $SUITE under qemu-user-static, $((SECONDS - start)) s in all)"
    printf '  %s\n' "${STEPS[@]}"
    echo "  clue-companion doctor exit code: $doctor (expected non-zero: no board here)"
    if ((${#FAILURES[@]})); then
        printf '  FAILED: %s\n' "${FAILURES[@]}"
        exit 1
    fi
    echo "  all checks passed"
}

main "$@"
