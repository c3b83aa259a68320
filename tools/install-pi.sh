#!/bin/bash
# Installs (or upgrades) the CLUE companion on Raspberry Pi OS / Debian as a systemd service.
# Safe to run again: that is the upgrade (git pull && sudo tools/install-pi.sh). It never
# overwrites /etc/clue-companion.toml and never touches the game store. docs/install.md
# says what each step does and why.
set -euo pipefail

readonly PREFIX=/opt/clue-companion
readonly STATE=/var/lib/clue-companion
readonly CONFIG=/etc/clue-companion.toml
readonly UNIT=/etc/systemd/system/clue-companion.service
readonly RULE=/etc/udev/rules.d/99-clue-board.rules
readonly MODULES=/etc/modules-load.d/clue-companion.conf
readonly LINK=/usr/local/bin/clue-companion
readonly KIOSK_BIN=/usr/local/bin/clue-companion-kiosk
readonly KIOSK_DESKTOP=/etc/xdg/autostart/clue-companion-kiosk.desktop
readonly USER_NAME=clue
readonly GROUPS_NEEDED=(dialout gpio i2c spi)
# The drivers of the devices the unit's DeviceAllow= names (ttyACM, i2c, spi; gpiochip is built in).
readonly BOOT_MODULES=(cdc_acm i2c-dev spidev)
readonly APT_PACKAGES=(python3 python3-venv python3-dev gcc rsync ca-certificates)
# armhf: pip may have to build Pillow (no armv7 wheel on PyPI; Pi OS's piwheels usually has one).
readonly APT_PACKAGES_ARMHF=(libjpeg-dev zlib1g-dev libfreetype-dev)

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly SRC
DONE=()

usage() {
    cat <<EOF
Usage: sudo tools/install-pi.sh [--kiosk] [--no-enable]
       sudo tools/install-pi.sh --uninstall [--purge]

Installs the CLUE companion from this checkout ($SRC) as the service
clue-companion: code in $PREFIX, state in $STATE, config $CONFIG.
Run it again after \`git pull\` to upgrade; your config and games are kept.

  --kiosk      also show the table page full screen on the HDMI screen at desktop login
  --no-enable  install, but do not enable or (re)start the service
  --uninstall  remove the service, the code, the udev rule and the command;
               keeps $STATE (the games) and $CONFIG
  --purge      with --uninstall: remove those too, and the user $USER_NAME
  -h, --help   this text
EOF
}

say() { printf '==> %s\n' "$*"; }
did() { DONE+=("$*"); say "$*"; }
fail() { printf 'install-pi.sh: %s\n' "$*" >&2; exit 1; }
systemd_running() { [[ -d /run/systemd/system ]]; }
udev_running() { [[ -S /run/udev/control ]] && command -v udevadm >/dev/null; }

install_packages() {
    local wanted=("${APT_PACKAGES[@]}") missing=() pkg
    if [[ $(dpkg --print-architecture) == armhf ]]; then
        wanted+=("${APT_PACKAGES_ARMHF[@]}")
    fi
    for pkg in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if ((${#missing[@]} == 0)); then
        say "system packages already installed: ${wanted[*]}"
        return
    fi
    say "installing ${missing[*]} with apt-get"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    did "installed system packages: ${missing[*]}"
}

create_user() {
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        if ! getent group "$group" >/dev/null; then
            groupadd --system "$group"
            did "created the system group $group"
        fi
    done
    if ! getent passwd "$USER_NAME" >/dev/null; then
        useradd --system --user-group --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin --comment "CLUE companion" "$USER_NAME"
        did "created the system user $USER_NAME"
    fi
    usermod -a -G "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$USER_NAME"
    install -d -o "$USER_NAME" -g "$USER_NAME" -m 0700 "$STATE"
    did "user $USER_NAME in groups ${GROUPS_NEEDED[*]}; state directory $STATE (mode 0700)"
}

install_code() {
    install -d -m 0755 "$PREFIX" "$PREFIX/src"
    if [[ $SRC != "$PREFIX/src" ]]; then
        rsync -a --delete --chown=root:root --exclude=.venv/ --exclude=.git/ --exclude=node_modules/ \
            --exclude=__pycache__/ --exclude='*.egg-info/' --exclude=build/ --exclude=.mypy_cache/ \
            --exclude=.pytest_cache/ --exclude=.hypothesis/ "$SRC/" "$PREFIX/src/"
        did "copied $SRC to $PREFIX/src"
    fi
    if [[ -d $PREFIX/.venv ]]; then  # the layout of the old hand-written instructions
        rm -rf "$PREFIX/.venv"
        did "removed the old virtual environment $PREFIX/.venv"
    fi
    if [[ ! -x $PREFIX/venv/bin/python ]]; then
        python3 -m venv "$PREFIX/venv"
        did "created the virtual environment $PREFIX/venv"
    fi
    say "pip install '$PREFIX/src[pi]' (several minutes the first time on a Pi)"
    # --upgrade: a local directory is reinstalled even when its version number is unchanged.
    "$PREFIX/venv/bin/pip" install --quiet --upgrade "$PREFIX/src[pi]"
    ln -sfn "$PREFIX/venv/bin/clue-companion" "$LINK"
    did "installed $("$LINK" --version 2>/dev/null || echo clue-companion) into $PREFIX/venv; $LINK links to it"
}

write_config() {
    if [[ -e $CONFIG ]]; then
        say "kept your $CONFIG (the shipped one is $SRC/tools/pi/clue-companion.toml)"
        return
    fi
    # 0640: the host PIN may be written in it; the service user reads it through its group.
    install -m 0640 -o root -g "$USER_NAME" "$SRC/tools/pi/clue-companion.toml" "$CONFIG"
    did "wrote $CONFIG (store $STATE/companion.db)"
}

enable_buses() {
    # The service's DeviceAllow= looks device groups up when it starts: load their drivers at boot.
    install -d -m 0755 "$(dirname "$MODULES")"
    {
        echo "# clue-companion: the board's and the handhelds' drivers, loaded at boot so that"
        echo "# the service may open their devices (tools/install-pi.sh)."
        printf '%s\n' "${BOOT_MODULES[@]}"
    } >"$MODULES"
    did "wrote $MODULES"
    if command -v raspi-config >/dev/null; then
        raspi-config nonint do_i2c 0
        raspi-config nonint do_spi 0
        did "enabled I2C and SPI (raspi-config nonint do_i2c 0, do_spi 0)"
    else
        say "raspi-config not found: I2C and SPI NOT enabled. On a Pi, add the lines"
        say "  dtparam=i2c_arm=on  and  dtparam=spi=on  to /boot/firmware/config.txt"
        say "  (/boot/config.txt before bookworm), add i2c-dev to /etc/modules, and reboot."
    fi
}

install_udev_rule() {
    install -D -m 0644 "$SRC/tools/pi/99-clue-board.rules" "$RULE"
    if udev_running; then
        udevadm control --reload
        udevadm trigger --subsystem-match=tty --action=add
        did "installed $RULE and reloaded udev (the board appears as /dev/clue-board)"
    else
        did "installed $RULE (udev is not running: it applies at next boot)"
    fi
}

install_unit() {
    local enable=$1
    install -D -m 0644 "$SRC/tools/pi/clue-companion.service" "$UNIT"
    did "installed $UNIT"
    if systemd_running; then
        systemctl daemon-reload
    fi
    if [[ $enable == no ]]; then
        say "--no-enable: the service is not enabled nor started (sudo systemctl enable --now clue-companion)"
        return
    fi
    command -v systemctl >/dev/null || fail "systemctl not found: install systemd, or pass --no-enable"
    systemctl enable clue-companion.service
    if systemd_running; then
        systemctl restart clue-companion.service
        did "enabled and (re)started clue-companion.service"
    else
        did "enabled clue-companion.service (systemd is not running here, e.g. a chroot: it starts at next boot)"
    fi
}

install_kiosk() {
    install -m 0755 "$SRC/tools/pi/clue-companion-kiosk" "$KIOSK_BIN"
    install -D -m 0644 "$SRC/tools/pi/clue-companion-kiosk.desktop" "$KIOSK_DESKTOP"
    did "kiosk: installed $KIOSK_DESKTOP (starts $KIOSK_BIN at desktop login)"
    if ! command -v chromium-browser >/dev/null && ! command -v chromium >/dev/null; then
        say "kiosk: no Chromium here: install it (Raspberry Pi OS: apt-get install chromium-browser;"
        say "  Debian: apt-get install chromium). The kiosk needs a desktop image, not Lite."
    fi
    if command -v raspi-config >/dev/null; then
        raspi-config nonint do_boot_behaviour B4
        did "kiosk: boot to the desktop, logged in automatically (raspi-config B4)"
    else
        say "kiosk: raspi-config not found: set the desktop to log in automatically yourself"
    fi
}

uninstall() {
    local purge=$1
    if command -v systemctl >/dev/null && [[ -e $UNIT ]]; then
        if systemd_running; then
            systemctl disable --now clue-companion.service || true
        else
            systemctl disable clue-companion.service || true
        fi
    fi
    rm -f "$UNIT" "$RULE" "$MODULES" "$LINK" "$KIOSK_BIN" "$KIOSK_DESKTOP"
    if systemd_running; then systemctl daemon-reload; fi
    if udev_running; then udevadm control --reload; fi
    rm -rf "$PREFIX"
    did "removed the service, $PREFIX, the udev rule, the kiosk files and $LINK"
    if [[ $purge == yes ]]; then
        rm -rf "$STATE"
        rm -f "$CONFIG"
        if getent passwd "$USER_NAME" >/dev/null; then userdel "$USER_NAME"; fi
        did "purged $STATE (the games), $CONFIG and the user $USER_NAME"
    else
        say "kept $STATE (the games) and $CONFIG: --uninstall --purge removes them"
    fi
}

next_steps() {
    cat <<EOF

What to do next:
  1. Edit $CONFIG if your handhelds or readers are not wired as in docs/hardware.md
     (then: sudo systemctl restart clue-companion).
  2. Enrol the tags (the board answers one program at a time, so stop the service meanwhile):
       sudo systemctl stop clue-companion
       sudo -u $USER_NAME clue-companion enroll
       sudo systemctl start clue-companion
  3. Check everything: sudo clue-companion doctor   (it also shows the host PIN)
  4. The log: journalctl -u clue-companion -f
  The host PIN is kept in $STATE/host-pin (sudo cat $STATE/host-pin),
  or set your own: [web] pin in $CONFIG.
EOF
}

main() {
    local kiosk=no enable=yes remove=no purge=no arg
    for arg in "$@"; do
        case $arg in
            --kiosk) kiosk=yes ;;
            --no-enable) enable=no ;;
            --uninstall) remove=yes ;;
            --purge) purge=yes ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; fail "unknown option: $arg" ;;
        esac
    done
    [[ $EUID -eq 0 ]] || fail "run it as root: sudo $0 $*"
    if [[ $purge == yes && $remove == no ]]; then fail "--purge goes with --uninstall"; fi
    if [[ $remove == yes ]]; then
        uninstall "$purge"
        return
    fi
    [[ -f $SRC/pyproject.toml && -d $SRC/tools/pi ]] || fail "$SRC is not a clue-companion checkout"
    command -v apt-get >/dev/null || fail "apt-get not found: this installer is for Raspberry Pi OS / Debian"
    install_packages
    create_user
    install_code
    write_config
    enable_buses
    install_udev_rule
    install_unit "$enable"
    if [[ $kiosk == yes ]]; then install_kiosk; fi
    printf '\nDone. What this run did:\n'
    printf '  - %s\n' "${DONE[@]}"
    next_steps
}

main "$@"
