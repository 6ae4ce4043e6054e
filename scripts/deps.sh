#!/bin/bash
# Install, with apt-get, only the Debian packages that are missing.
# Idempotent: when everything is there it prints nothing and returns
# at once, so every make target can depend on it.
set -eu
. "$(dirname "$0")/lib.sh"

pkgs="linux-source-6.1 gcc make flex bison bc libelf-dev libssl-dev cpio
ccache qemu-system-x86 diod acl attr libacl1-dev libattr1-dev
libcap-ng-dev busybox-static xz-utils git python3"

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	if [ "$st" != installed ]; then
		echo "deps: $p is missing"
		missing="$missing $p"
	fi
done
[ -n "$missing" ] || exit 0

[ "$(id -u)" -eq 0 ] || die "deps: need root to install:$missing"
command -v apt-get >/dev/null || die "deps: no apt-get; install by hand:$missing"

log=$ACL9P_BUILD/logs/apt.log
mkdir -p "${log%/*}"
echo "deps: installing:$missing (log: $log)"
export DEBIAN_FRONTEND=noninteractive
# Recommends would drag in the QEMU GUI and GTK: minutes of CI for nothing.
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	die "deps: apt-get failed; see $log"
fi
