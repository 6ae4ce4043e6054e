#!/bin/bash
# diod, Debian's 9p server, serving EXPORT to one guest.  Prints the
# QEMU arguments, one per line.
#
# usage: diod.sh EXPORT LOGFILE
#
# QEMU user networking runs one diod per guest TCP connection on
# 10.0.2.100:564 (guestfwd ... cmd:), talking 9p on its stdin/stdout:
# no host port is opened, restrict=on keeps the guest off every other
# address, nothing leaves the machine.  -n: no munge authentication,
# -c /dev/null: no config file, so only these options apply.
# -N: take the guest's numeric uids and gids as they are; the test users
# (1001-1003) have no entry in the host's passwd, and with the user
# database diod refuses their attach ("user lookup: Operation not
# permitted").  diod then sets no supplementary groups for them.
set -eu
export=$1 log=$2
command -v diod >/dev/null || { echo "diod: not installed (run: make deps)" >&2; exit 1; }
case "$export$log" in
*,*) echo "diod: paths must not contain commas (QEMU option syntax)" >&2; exit 2 ;;
esac
diod=$(command -v diod)
echo "-netdev"
echo "user,id=net0,restrict=on,guestfwd=tcp:10.0.2.100:564-cmd:$diod -f -n -N -c /dev/null --rfdno 0 --wfdno 1 -e $export -L $log"
echo "-device"
echo "virtio-net-pci,netdev=net0"
