#!/bin/bash
# Builds a Raspberry Pi SD card image (arm64, Debian bookworm; Pi 3B+, 4, 5 and Zero 2 W) that
# boots into the CLUE companion, the way Debian's own Raspberry Pi images are made: a
# debootstrapped root, Debian's kernel (linux-image-arm64) and the Pi's boot firmware
# (raspi-firmware), a FAT boot partition (label RASPIFIRM, /boot/firmware) and an ext4 root
# (label RASPIROOT), the companion installed by tools/install-pi.sh run in the root.
#   sudo tools/build-image.sh OUT.img            ... 2>&1 | tee /tmp/build-image.log
# Needs root on a Debian/Ubuntu PC (it installs its own host packages with apt-get); no loop
# device and no mount of the image: the root is made by `mke2fs -d`, the boot partition with
# mtools, the two put together with sfdisk and dd. The base root (debootstrap and Debian's
# packages) is cached in $CLUE_IMAGE_CACHE (default /var/tmp/clue-image-cache) and reused
# while its package list is unchanged. OUT.img.xz is written too unless CLUE_IMAGE_XZ=no.
# docs/install.md says what is in the image and why.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO
readonly SUITE=bookworm ARCH=arm64
CACHE=${CLUE_IMAGE_CACHE:-/var/tmp/clue-image-cache}
MIRROR=${CLUE_IMAGE_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${CLUE_IMAGE_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
readonly BOOT_LABEL=RASPIFIRM ROOT_LABEL=RASPIROOT
readonly BOOT_MIB=256 BOOT_START_MIB=4
# The system: Debian's kernel and Pi firmware, systemd, NetworkManager for Wi-Fi and the
# hotspot (wpasupplicant, dnsmasq-base: NM's shared mode runs it for DHCP), the file system
# tools the first boot and fsck need, and what install-pi.sh would install (so the cached
# base holds it). No openssh-server: there is no password to log in with. The Wi-Fi firmware
# comes from backports (only it: backports are never installed unasked), whose firmware-brcm80211
# has the Zero 2 W's NVRAM file (brcmfmac43430-sdio.raspberrypi,model-zero-2-w.txt) that
# bookworm's lacks (docs/install.md, "Which Pi").
readonly PACKAGES=(
    systemd systemd-sysv systemd-timesyncd udev dbus kmod
    linux-image-arm64 initramfs-tools raspi-firmware "firmware-brcm80211/$SUITE-backports" wireless-regdb iw
    network-manager wpasupplicant dnsmasq-base
    e2fsprogs dosfstools fdisk util-linux iproute2 jq
    python3 python3-venv python3-dev gcc rsync ca-certificates
)
# Removed once install-pi.sh has built the venv: only spidev's build needs them (docs/install.md).
readonly BUILD_ONLY=(gcc python3-dev)
readonly HOST_PACKAGES=(qemu-user-static binfmt-support debootstrap mtools dosfstools fdisk e2fsprogs xz-utils rsync)

ROOT=""
WORK=""
MOUNTS=()
STEPS=()

say() { printf '\n=== %s\n' "$*"; }
fail() { printf 'build-image.sh: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

timed() {  # timed NAME COMMAND...: runs it and records how long it took
    local name=$1 start=$SECONDS
    shift
    "$@"
    STEPS+=("$(printf '%-40s %5ss' "$name" $((SECONDS - start)))")
}

cleanup() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -R "${MOUNTS[i]}" 2>/dev/null || umount -R -l "${MOUNTS[i]}" || true
    done
    MOUNTS=()
    if [[ -n $WORK ]]; then rm -rf "$WORK"; fi
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
    if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    update-binfmts --enable qemu-aarch64 2>/dev/null || true
    grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
        fail "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --display qemu-aarch64)"
}

PIP_ENV=()
in_root() {  # in_root COMMAND...: run in the arm64 root, with a clean environment but pip's settings
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive "${PIP_ENV[@]}" "$@"
}

# This machine's pip settings (PIP_*) for pip in the root, during the build only: a file they
# name (a certificate bundle, say) is copied into the root's /root/.clue-build, removed before
# the image is made; a setting naming a directory missing from the root is left out.
pip_settings() {
    local line name value
    PIP_ENV=()
    mkdir -p "$ROOT/root/.clue-build"
    while IFS= read -r line; do
        name=${line%%=*}
        value=${line#*=}
        if [[ $value == /* && -f $value ]]; then
            cp "$value" "$ROOT/root/.clue-build/$name"
            value=/root/.clue-build/$name
        elif [[ $value == /* && ! -e $ROOT$value ]]; then
            continue
        fi
        PIP_ENV+=("$name=$value")
    done < <(env | grep '^PIP_' || true)
}

mount_in_root() {  # mount_in_root TARGET MOUNT-ARGS...: a mount inside the root directory (not the image)
    local target=$ROOT$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    MOUNTS+=("$target")
}

enter_root() {  # the mounts a chroot needs; package scripts must not start services
    ROOT=$1
    mount_in_root /proc -t proc proc
    mount_in_root /sys --rbind /sys
    mount --make-rslave "$ROOT/sys"
    mount_in_root /dev --rbind /dev
    mount --make-rslave "$ROOT/dev"
    rm -f "$ROOT/etc/resolv.conf"
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
    printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
    chmod +x "$ROOT/usr/sbin/policy-rc.d"
}

leave_root() {
    cleanup_mounts
    rm -f "$ROOT/usr/sbin/policy-rc.d" "$ROOT/etc/resolv.conf"
}

cleanup_mounts() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -R "${MOUNTS[i]}" 2>/dev/null || umount -R -l "${MOUNTS[i]}"
    done
    MOUNTS=()
}

debootstrapped() {  # the bare debootstrap, cached
    local dir=$CACHE/debootstrap-$SUITE-$ARCH
    if [[ -d $dir ]]; then
        echo "cached: $dir"
        return
    fi
    rm -rf "$dir.partial"
    debootstrap --arch "$ARCH" --variant=minbase --components=main,non-free-firmware \
        "$SUITE" "$dir.partial" "$MIRROR"
    mv "$dir.partial" "$dir"
}

# The base's cache key: whatever decides its contents.
base_key() {
    { printf '%s\n' "$SUITE" "$ARCH" "$MIRROR" "${PACKAGES[@]}"; declare -f write_base_config
        cat "$REPO/tools/pi/image/initramfs-modules"; } |
        sha256sum | cut -c1-12
}

write_base_config() {  # ROOT: files that must be there before Debian's packages are installed
    local root=$1
    cat >"$root/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main non-free-firmware
deb $MIRROR $SUITE-updates main non-free-firmware
deb $SECURITY_MIRROR $SUITE-security main non-free-firmware
deb $MIRROR $SUITE-backports non-free-firmware
EOF
    # No manuals, translations nor docs (but the copyright files) in the image, as Debian's
    # container images do; later packages (and apt upgrades) keep to it.
    cat >"$root/etc/dpkg/dpkg.cfg.d/clue-image-excludes" <<'EOF'
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
path-include=/usr/share/locale/locale.alias
path-exclude=/usr/share/doc/*
path-include=/usr/share/doc/*/copyright
path-exclude=/usr/share/lintian/*
EOF
    # The boot partition holds the kernel, the initramfs, the device trees and config.txt;
    # raspi-firmware's kernel hook copies them there and writes cmdline.txt with this root.
    cat >"$root/etc/default/raspi-firmware" <<EOF
ROOTPART=LABEL=$ROOT_LABEL
CONSOLES="ttyS1,115200 tty0"
KERNEL_ARCH=arm64
EOF
    cat >"$root/etc/fstab" <<EOF
# The root and the boot partition, by label (tools/build-image.sh; docs/install.md).
LABEL=$ROOT_LABEL  /               ext4  rw,noatime,errors=remount-ro  0 1
LABEL=$BOOT_LABEL  /boot/firmware  vfat  rw,noatime,fmask=0077,dmask=0077  0 2
EOF
    echo clue >"$root/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\tclue\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
    # The initramfs: the drivers that reach the root on any Pi, not MODULES=most's all.
    mkdir -p "$root/etc/initramfs-tools/conf.d"
    # FSTYPE: the fsck hook cannot find LABEL=RASPIROOT in a chroot (no such disk), and would
    # leave fsck out; the initramfs checks the root before mounting it (fsck.repair=yes).
    printf 'MODULES=list\nFSTYPE=ext4\n' >"$root/etc/initramfs-tools/conf.d/clue-image"
    install -D -m 0755 "$REPO/tools/pi/image/initramfs-modules" "$root/etc/initramfs-tools/hooks/clue-image"
    mkdir -p "$root/boot/firmware"
}

based() {  # the debootstrapped root with Debian's packages, cached by base_key
    local dir
    dir=$CACHE/base-$SUITE-$ARCH-$(base_key)
    if [[ -d $dir ]]; then
        echo "cached: $dir"
        BASE=$dir
        return
    fi
    rm -rf "$dir.partial"
    cp -a "$CACHE/debootstrap-$SUITE-$ARCH" "$dir.partial"
    write_base_config "$dir.partial"
    enter_root "$dir.partial"
    in_root apt-get update -q
    # --force-confold: keep the /etc/default/raspi-firmware written above (no conffile question).
    in_root apt-get install -y -q --no-install-recommends -o Dpkg::Options::=--force-confdef \
        -o Dpkg::Options::=--force-confold "${PACKAGES[@]}" </dev/null
    in_root apt-get clean
    leave_root
    rm -rf "$dir.partial/var/lib/apt/lists/"*
    mv "$dir.partial" "$dir"
    BASE=$dir
}

install_companion() {  # the companion by install-pi.sh, as on any Pi; then the image's own files
    local src=/root/clue-companion-src
    mkdir -p "$ROOT$src" "$CACHE/pip"
    tar -C "$REPO" --exclude=./.venv --exclude=./.git --exclude=node_modules --exclude=__pycache__ \
        --exclude='*.egg-info' --exclude=.mypy_cache --exclude=.pytest_cache --exclude=.hypothesis \
        -cf - . | tar -C "$ROOT$src" -xf -
    mount_in_root /root/.cache/pip --bind "$CACHE/pip"
    pip_settings
    in_root apt-get update -q
    in_root bash "$src/tools/install-pi.sh"
    in_root apt-get purge -y -q "${BUILD_ONLY[@]}"
    in_root apt-get autoremove -y -q --purge
    in_root apt-get clean
    rm -rf "${ROOT:?}$src" "$ROOT/root/.clue-build"
    PIP_ENV=()
    umount "$ROOT/root/.cache/pip"  # the last mount made: pip's cache stays on this machine
    unset 'MOUNTS[${#MOUNTS[@]}-1]'
    rm -rf "$ROOT/root/.cache"
    in_root /opt/clue-companion/venv/bin/python -c 'import companion, web, hardware, lgpio, spidev'
    in_root clue-companion --version
}

install_image_files() {
    local image=$REPO/tools/pi/image
    install -m 0755 "$image/clue-network" "$ROOT/usr/local/sbin/clue-network"
    install -m 0755 "$image/clue-grow-root" "$ROOT/usr/local/sbin/clue-grow-root"
    install -m 0644 "$image"/*.service "$ROOT/etc/systemd/system/"
    install -D -m 0644 "$image/journald.conf" "$ROOT/etc/systemd/journald.conf.d/clue-image.conf"
    install -D -m 0644 "$image/NetworkManager.conf" "$ROOT/etc/NetworkManager/conf.d/clue-image.conf"
    install -D -m 0755 "$REPO/tools/pi/boot/clue-companion.toml" "$ROOT/boot/firmware/clue-companion.toml" 2>/dev/null ||
        echo "warning: tools/pi/boot/clue-companion.toml not found: the image has no boot file template"
    in_root systemctl enable clue-first-boot.service clue-network.service clue-welcome.service \
        clue-grow-root.service NetworkManager.service systemd-timesyncd.service
    # RAM for /tmp; no daily apt downloads onto the card (the image has no upgrade path by apt).
    in_root systemctl enable /usr/share/systemd/tmp.mount
    in_root systemctl mask apt-daily.timer apt-daily-upgrade.timer getty@tty1.service
    # No password anywhere: root is locked; nothing listens for a log-in over the network.
    in_root passwd -l root
    rm -f "$ROOT/etc/machine-id" "$ROOT/var/lib/dbus/machine-id"
    : >"$ROOT/etc/machine-id"  # made on first boot (systemd-machine-id-setup), unique per card
    rm -f "$ROOT"/etc/ssh/ssh_host_* "$ROOT"/var/log/*.log "$ROOT/var/cache/debconf/"*-old
    rm -rf "$ROOT/var/lib/apt/lists/"*
}

boot_config() {  # config.txt and cmdline.txt, rewritten by raspi-firmware's kernel hook
    # ROOTPART: the root by label. CMA=0: no cma= on the command line, so each board's device
    # tree (or the kernel's 64 MiB default) decides; raspi-firmware sets cma=64M otherwise, which
    # its hook says makes a Pi 4 unbootable, and an image made off a Pi cannot tell which Pi it
    # will boot on. Consoles: the HDMI screen (tty1 shows the welcome screen) and the serial pins.
    cat >"$ROOT/etc/default/raspi-firmware" <<EOF
ROOTPART=LABEL=$ROOT_LABEL
CMA=0
CONSOLES="ttyS1,115200 tty0"
KERNEL_ARCH=arm64
EOF
    # I2C and SPI for the handhelds, as raspi-config's do_i2c and do_spi set them
    # (install-pi.sh says so where raspi-config is missing, as here).
    printf 'dtparam=i2c_arm=on\ndtparam=spi=on\n' >"$ROOT/etc/default/raspi-firmware-custom"
    # No kernel messages over the welcome screen; the journal keeps them.
    echo "quiet loglevel=3" >"$ROOT/etc/default/raspi-extra-cmdline"
    in_root env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware
}

# The Pi boots the firmware from the FAT partition; raspi-firmware's kernel hook put it all in
# /boot/firmware of the root (Debian's package: /etc/kernel/postinst.d/z50-raspi-firmware).
check_boot_files() {
    local f
    for f in config.txt cmdline.txt start4.elf bootcode.bin; do
        [[ -s $ROOT/boot/firmware/$f ]] || fail "raspi-firmware left no /boot/firmware/$f"
    done
    ls "$ROOT/boot/firmware/"vmlinuz* "$ROOT/boot/firmware/"initrd.img* >/dev/null ||
        fail "no kernel or initramfs in /boot/firmware"
    echo "cmdline.txt: $(cat "$ROOT/boot/firmware/cmdline.txt")"
    # The Wi-Fi NVRAM of each supported Pi (the firmware .bin each one names is there with it).
    for f in 3-model-b 3-model-b-plus 4-model-b model-zero-2-w; do
        compgen -G "$ROOT/lib/firmware/brcm/brcmfmac434*-sdio.raspberrypi,$f.txt" >/dev/null ||
            fail "firmware-brcm80211 has no Wi-Fi settings for the raspberrypi,$f"
    done
}

assemble() {  # OUT: the FAT and ext4 file systems, made from directories, in one partitioned file
    local out=$1 boot_img root_img root_mib used_kib inodes
    boot_img=$WORK/boot.fat
    root_img=$WORK/root.ext4
    # FAT32 of BOOT_MIB, filled with mtools from the root's /boot/firmware, which is then emptied
    # (it is the mount point).
    truncate -s "${BOOT_MIB}M" "$boot_img"
    mformat -i "$boot_img" -F -v "$BOOT_LABEL" -N "$(printf '%08X' $((RANDOM * 65536 + RANDOM)))" ::
    mcopy -i "$boot_img" -s -p -Q "$ROOT/boot/firmware/"* ::
    find "$ROOT/boot/firmware" -mindepth 1 -delete
    # ext4 with 20% and 200 MiB free (the first boot grows it to the card); 4 KiB blocks.
    used_kib=$(du -s -k "$ROOT" | cut -f1)
    root_mib=$(((used_kib * 12 / 10) / 1024 + 200))
    inodes=$(($(find "$ROOT" -xdev | wc -l) * 3 / 2 + 20000))
    mke2fs -q -t ext4 -L "$ROOT_LABEL" -b 4096 -m 1 -N "$inodes" -E lazy_itable_init=0,lazy_journal_init=0 \
        -d "$ROOT" "$root_img" "${root_mib}M"
    e2fsck -fn "$root_img"
    local boot_start=$((BOOT_START_MIB * 2048)) boot_sectors=$((BOOT_MIB * 2048))
    local root_start=$((boot_start + boot_sectors)) root_sectors=$((root_mib * 2048))
    rm -f "$out"
    truncate -s $(((root_start + root_sectors) * 512)) "$out"
    # MBR: every Pi boots from it (the Pi 3's ROM reads no GPT); partition 1 FAT32 (LBA).
    sfdisk --quiet "$out" <<EOF
label: dos
unit: sectors
start=$boot_start, size=$boot_sectors, type=c, bootable
start=$root_start, size=$root_sectors, type=83
EOF
    dd if="$boot_img" of="$out" bs=1M seek="$BOOT_START_MIB" conv=notrunc,sparse status=none
    dd if="$root_img" of="$out" bs=1M seek=$((root_start / 2048)) conv=notrunc,sparse status=none
    sfdisk --dump "$out"
}

compress() {
    local out=$1
    xz -T0 -6 -k -f "$out"
}

main() {
    local out=""
    while (($#)); do
        case $1 in
            -h | --help) usage; exit 0 ;;
            -*) usage >&2; fail "unknown option: $1" ;;
            *) [[ -z $out ]] || fail "one output file only"; out=$1 ;;
        esac
        shift
    done
    [[ -n $out ]] || { usage >&2; fail "name the image to write, e.g. clue-companion.img"; }
    [[ $EUID -eq 0 ]] || fail "run it as root (debootstrap, chroot and mke2fs -d of a root tree need it)"
    [[ -d $REPO/tools/pi/image ]] || fail "$REPO is not a clue-companion checkout"
    mkdir -p "$CACHE" "$(dirname "$out")"
    out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
    trap cleanup EXIT
    local start=$SECONDS
    WORK=$(mktemp -d "$CACHE/build.XXXXXX")
    say "host tools: ${HOST_PACKAGES[*]}"
    timed "host tools" host_tools
    say "debootstrap $SUITE $ARCH (cached in $CACHE)"
    timed "debootstrap (or the cached one)" debootstrapped
    say "Debian's packages: ${PACKAGES[*]}"
    timed "base packages (or the cached base)" based
    say "the image's root: a copy of $BASE"
    timed "copy the base" cp -a "$BASE" "$WORK/root"
    enter_root "$WORK/root"
    say "tools/install-pi.sh --image in the root"
    timed "install-pi.sh and its packages" install_companion
    timed "the image's units and settings" install_image_files
    timed "config.txt and cmdline.txt (raspi-firmware)" boot_config
    leave_root
    check_boot_files
    say "file systems and partitions"
    timed "mke2fs -d, mtools, sfdisk" assemble "$out"
    if [[ ${CLUE_IMAGE_XZ:-yes} != no ]]; then
        say "xz"
        timed "xz" compress "$out"
    fi
    say "summary ($((SECONDS - start)) s)"
    printf '  %s\n' "${STEPS[@]}"
    printf '  image: %s, %s MiB' "$out" $(($(stat -c %s "$out") / 1048576))
    if [[ -f $out.xz ]]; then printf ', %s MiB compressed (%s.xz)' $(($(stat -c %s "$out.xz") / 1048576)) "$out"; fi
    printf '\n'
}

main "$@"
