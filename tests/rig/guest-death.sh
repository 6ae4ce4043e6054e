#!/bin/bash
# Guest death mid-write: QEMU is SIGKILLed while the guest sets ACLs in
# a loop; the export must then hold one of the values the guest set
# (or the first one), whole, never a mix, and never one older than the
# last the guest saw acknowledged.
#
# usage: guest-death.sh [SERVER...]      (default: diod qemu-passthrough)
#
# Each round boots one guest (scripts/boot.sh, the rig's own binary
# acl9p_rig_guestdeath from tests/rig/guest/guestdeath.c, which sets
# value 1, 2, 3, ... on /mnt/share/acl9p-guestdeath and prints
# "acked K" after each), waits for its loop to start, sleeps a random
# delay from a logged seed, SIGKILLs QEMU (the processes QEMU started,
# diod, are left to end on their own EOF and waited for), then reads
# the export's system.posix_acl_access with getfattr and decodes it:
# the named user's id gives k, and the bytes must be exactly value k
# (value_hex below, the same function as the guest's) with k at least
# the last acknowledged one.
#
# Environment: GD_SEED (default: the time; logged, give it back to
# replay the delays), GD_ROUNDS (rounds per server, default 2),
# GD_KERNEL (vanilla | patched | a bzImage; default patched when the
# series lists patches, else vanilla), GD_ACCESS (client | user,
# default client), GD_BUDGET_S (no round starts after this many
# seconds, default 50).  Exit status: 0 when every round held a whole
# value, 1 otherwise.  Prints "ok"/"not ok" per round and, last,
# "guest-death: N rounds, F failed, seed S, T s, C server core dumps"
# (a diod that died of a signal on its EOF: logged, not a failure; the
# export is judged all the same).
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

seed=${GD_SEED:-$(date +%s)}
rounds=${GD_ROUNDS:-2}
access=${GD_ACCESS:-client}
budget=${GD_BUDGET_S:-50}
servers=("$@")
[ ${#servers[@]} -gt 0 ] || servers=(diod qemu-passthrough)
case ${GD_KERNEL:-} in
vanilla | patched) label=$GD_KERNEL kernel=$ACL9P_BUILD/kernels/$GD_KERNEL.bzImage ;;
'')
	if "$ACL9P_TOP/scripts/series-available.sh"; then label=patched; else label=vanilla; fi
	kernel=$ACL9P_BUILD/kernels/$label.bzImage
	;;
*) label=custom kernel=$GD_KERNEL ;;
esac
[ -r "$kernel" ] || die "guest-death: no kernel $kernel"
command -v getfattr >/dev/null || die "guest-death: getfattr missing (run: make deps)"
RANDOM=$seed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# value_hex K: value k as the kernel stores it (guestdeath.c's value())
le16() { printf '%02x%02x' $(($1 & 255)) $(($1 >> 8 & 255)); }
le32() { printf '%02x%02x%02x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
value_hex() {
	local k=$1 named=(4 6 5)
	printf '02000000%s%s%s%s%s\n' \
		"$(le16 1)$(le16 6)ffffffff" \
		"$(le16 2)$(le16 "${named[k % 3]}")$(le32 $((2000 + k)))" \
		"$(le16 4)$(le16 4)ffffffff" \
		"$(le16 16)$(le16 $((k % 2 ? 6 : 4)))ffffffff" \
		"$(le16 32)$(le16 $((k / 2 % 2 ? 4 : 0)))ffffffff"
}
# what the named user's id (bytes 16-19 of the value) says k is
k_of_hex() {
	local h=$1
	[ ${#h} -eq 88 ] || { echo -1; return; }
	echo $(( 16#${h:38:2}${h:36:2}${h:34:2}${h:32:2} - 2000 ))
}

# pids of PID's descendants, deepest last
descendants() {
	local c
	for c in $(pgrep -P "$1" || true); do
		echo "$c"
		descendants "$c"
	done
}

n=0 failn=0 cores=0 t_start=$(now_ms)
echo "guest-death: seed $seed, kernel $label, access=$access, servers ${servers[*]}, $rounds rounds each"
for server in "${servers[@]}"; do
	for r in $(seq "$rounds"); do
		if [ $(( ($(now_ms) - t_start) / 1000 )) -ge "$budget" ]; then
			echo "# guest-death: ${budget}s spent, no more rounds"
			break 2
		fi
		n=$((n + 1))
		delay=$((150 + RANDOM % 1350))
		cell=guestdeath.$server.$access.none
		out=$tmp/$cell.$r
		t0=$(now_ms)
		# QEMU, and the diod it starts, run in a directory of the
		# round's own: Debian's diod 1.0.24 sometimes dies of SIGSEGV on
		# its EOF with fids open (server/README.md) and dumps core there
		rdir=$tmp/round.$n
		mkdir -p "$rdir"
		(cd "$rdir" && exec "$ACL9P_TOP/scripts/boot.sh" --kernel "$kernel" \
			--cell "$cell" --out "$out" --timeout 90 --set ACL9P_TESTS_DIR=/tests/rig \
			--set ACL9P_TESTS=rig_guestdeath >"$tmp/boot.log" 2>&1) &
		bpid=$!
		# the loop has begun once value 0 is set
		started=0
		for _ in $(seq 600); do
			if grep -q 'guestdeath: start' "$out/ktap.txt" 2>/dev/null; then started=1; break; fi
			kill -0 $bpid 2>/dev/null || break
			sleep 0.05
		done
		qpid=
		for t in $(pgrep -P $bpid -x timeout || true); do
			qpid=$(pgrep -P "$t" | head -n 1)
		done
		if [ $started = 0 ] || [ -z "$qpid" ]; then
			[ -z "$qpid" ] || kill -KILL "$qpid" 2>/dev/null || true
			wait $bpid 2>/dev/null || true
			echo "not ok $n - $server round $r: the guest's loop never started"
			tail -n 5 "$out/ktap.txt" "$out/console.log" 2>/dev/null || true
			failn=$((failn + 1))
			continue
		fi
		t_loop=$(now_ms)
		sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
		kids=$(descendants "$qpid")
		kill -KILL "$qpid"
		wait $bpid 2>/dev/null || true
		# diod (QEMU's guestfwd child) ends on its EOF, and may store a
		# value as it clunks its fids: read the export after it is gone
		for _ in $(seq 100); do
			alive=
			for k in $kids; do kill -0 "$k" 2>/dev/null && alive=1; done
			[ -n "$alive" ] || break
			sleep 0.05
		done
		[ -z "$alive" ] || echo "# guest-death: QEMU's children $kids still run 5 s after its death"
		if [ -e "$rdir/core" ]; then
			echo "# guest-death: $server round $r: $(file -b "$rdir/core" | sed -n "s/.*from '\([^ ']*\).*/\1/p") dumped core after QEMU's death"
			cores=$((cores + 1))
		fi
		rm -rf "$rdir"
		f=$ACL9P_BUILD/run/$cell/export/acl9p-guestdeath
		acked=$(sed -n 's/.*guestdeath: acked \([0-9]*\).*/\1/p' "$out/ktap.txt" | tail -n 1)
		acked=${acked:-0}
		hex=$(getfattr --absolute-names -e hex -n system.posix_acl_access "$f" 2>/dev/null |
			sed -n 's/^system.posix_acl_access=0x//p')
		k=$(k_of_hex "$hex")
		what="loop began $((t_loop - t0)) ms after boot, QEMU killed $delay ms into it, round $(( $(now_ms) - t0 )) ms; last acked $acked"
		if grep -q 'guestdeath: done\|^ *not ok' "$out/ktap.txt"; then
			echo "not ok $n - $server round $r: the guest's loop ended by itself: $(grep -m1 'guestdeath: [sd][eo]' "$out/ktap.txt")"
			failn=$((failn + 1))
		elif [ "$k" -lt 0 ] || [ "$hex" != "$(value_hex "$k")" ]; then
			echo "not ok $n - $server round $r: $what; the export holds ${hex:-no ACL}, no value of the sequence"
			if [ "$k" -ge 0 ]; then
				want=$(value_hex "$k")
				echo "#   value $k would be $want"
				# header, u:: and the named entry agree: a mode's rewrite
				[ "${hex:0:40}" != "${want:0:40}" ] ||
					echo "#   value $k's entries under another mode (mask and other rewritten), mode $(stat -c %a "$f")"
			fi
			failn=$((failn + 1))
		elif [ "$k" -lt "$acked" ]; then
			echo "not ok $n - $server round $r: $what; the export holds value $k: acknowledged values lost"
			failn=$((failn + 1))
		else
			echo "ok $n - $server round $r: $what; the export holds value $k (acked + $((k - acked))), mode $(stat -c %a "$f")"
		fi
	done
done
echo "guest-death: $n rounds, $failn failed, seed $seed, $(( ($(now_ms) - t_start) / 1000 )) s, $cores server core dumps"
[ $failn -eq 0 ] && [ $n -gt 0 ]
