#!/bin/bash
# The appliance tests' stand-in for a Raspberry Pi OS Lite card: a Debian bookworm root file
# system (amd64: the machine's own architecture; arm64 would run under emulation, ten times
# slower) with what a stock image has that the package needs: systemd, D-Bus, Python 3 with
# venv, avahi, NetworkManager, git. Made once with debootstrap and kept: a second run reuses it.
#
#   tests/appliance/make_rootfs.sh DIR     exit 0 when DIR holds the root file system
#
# DIR/.castillo-rootfs names the package list it was made with; another list makes it again.
set -euo pipefail

root=${1:?usage: make_rootfs.sh DIR}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
packages=systemd,systemd-sysv,libpam-systemd,dbus,python3,python3-venv,avahi-daemon,libnss-mdns,network-manager,git,procps
stamp="bookworm minbase $packages"

if [ -f "$root/.castillo-rootfs" ] && [ "$(cat "$root/.castillo-rootfs")" = "$stamp" ]; then
    exit 0
fi
command -v debootstrap >/dev/null || { echo "make_rootfs.sh: debootstrap is not installed (make appliance-tools)" >&2; exit 2; }
# debootstrap mounts proc and sys inside; never delete through a mount left by a failed run
unmount_inside() {
    findmnt -rno TARGET | { grep -F "$1/" || true; } | sort -r | while read -r target; do umount -l "$target"; done
}
unmount_inside "$root.part"
rm -rf "$root" "$root.part"
mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include="$packages" bookworm "$root.part" "$mirror" >"$root.log" 2>&1 \
    || { unmount_inside "$root.part"; tail -20 "$root.log" >&2; echo "make_rootfs.sh: debootstrap failed (log: $root.log)" >&2; exit 1; }
# a stock card's first boot: no machine id yet, the stock host name
: >"$root.part/etc/machine-id"
echo raspberrypi >"$root.part/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n' >"$root.part/etc/hosts"
# the downloaded .debs are not needed once installed
rm -rf "$root.part/var/cache/apt/archives/"*.deb
echo "$stamp" >"$root.part/.castillo-rootfs"
mv "$root.part" "$root"
