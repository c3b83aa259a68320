#!/bin/bash
# CI checks of the Pi install files, needing no Pi: shellcheck on the shell scripts, and
# `systemd-analyze verify` on tools/pi/*.service. Needs the Debian packages shellcheck and
# systemd (systemd-analyze >= 251 for --recursive-errors).
#
# verify looks for the unit's ExecStart= binary, which only exists on an installed Pi, and
# for the targets the unit depends on; so each unit is verified inside a scratch root
# (--root) holding this machine's system units and a stub for each Exec*= program. Without
# --recursive-errors=one, verify exits 0 on an unknown key or a bad value (it only warns),
# so a deliberately broken copy is verified too and must fail: the check proves itself.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO
status=0

scratch_root() {  # scratch_root UNIT DIR: DIR becomes a root in which UNIT can be verified
    local unit=$1 root=$2 program
    mkdir -p "$root/usr/lib/systemd" "$root/etc/systemd/system"
    cp -a "$(readlink -f /lib/systemd/system)" "$root/usr/lib/systemd/system"
    # Stubs for the absolute programs of Exec*= lines (after systemd's prefixes @-:+!).
    sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\(\/[^[:space:]]*\).*/\1/p' "$unit" | while read -r program; do
        mkdir -p "$root$(dirname "$program")"
        printf '#!/bin/sh\n' >"$root$program"
        chmod +x "$root$program"
    done
    cp "$unit" "$root/etc/systemd/system/"
}

verify_unit() {  # verify_unit UNIT: 0 when systemd-analyze finds nothing to say about it
    local unit=$1 root output rc=0
    root=$(mktemp -d)
    scratch_root "$unit" "$root"
    output=$(systemd-analyze verify --recursive-errors=one --root="$root" \
        "/etc/systemd/system/$(basename "$unit")" 2>&1) || rc=$?
    rm -rf "$root"
    if [[ -n $output ]]; then printf '%s\n' "$output"; fi
    [[ $rc -eq 0 && -z $output ]]
}

echo "shellcheck:"
mapfile -t scripts < <(find "$REPO/tools" -name '*.sh' -o -path "$REPO/tools/pi/*" -type f -perm -u+x | sort)
if shellcheck "${scripts[@]}"; then
    printf '  ok %s\n' "${scripts[@]#"$REPO"/}"
else
    status=1
fi

echo "systemd-analyze verify ($(systemd-analyze --version | head -1)):"
for unit in "$REPO"/tools/pi/*.service "$REPO"/tools/pi/image/*.service "$REPO"/tools/pi/image/test/*.service; do
    if verify_unit "$unit"; then
        echo "  ok ${unit#"$REPO"/}"
    else
        echo "  FAILED ${unit#"$REPO"/}"
        status=1
    fi
    broken=$(mktemp -d)/$(basename "$unit")
    sed '/^\[Service\]$/a NoSuchSetting=yes' "$unit" >"$broken"
    if verify_unit "$broken" >/dev/null; then
        echo "  FAILED: verify accepts a broken copy of ${unit#"$REPO"/} (an unknown key)"
        status=1
    else
        echo "  ok verify rejects a broken copy of ${unit#"$REPO"/}"
    fi
    rm -rf "$(dirname "$broken")"
done
exit "$status"
