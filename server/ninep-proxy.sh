# diod behind ninep-proxy (server/ninep-proxy/), a strict 9P2000.L
# proxy: QEMU's guestfwd runs the proxy per guest connection, and the
# proxy runs diod exactly as server/diod.sh does, with its end of a
# socketpair on diod's stdin/stdout.  It parses every frame both ways
# and closes the connection on a malformed one; the guest's tests can
# make it inject faults into ACL xattr traffic and count messages per
# test by walking to control names (server/README.md).  Unfaulted it
# must behave exactly as diod: the same expected lists name both.
# Log and counts: the cell's ninep-proxy.log and ninep-proxy.counts;
# diod runs in the cell's results directory, so a core file it leaves
# (Debian's diod 1.0.24 sometimes crashes on a sudden EOF, and raises
# its own core limit) is there and not in QEMU's working directory.
. "${BASH_SOURCE[0]%/*}/diod.sh"

# built by "make tools"
ninep_proxy() {
	echo "${ACL9P_BUILD:-$(cd "${BASH_SOURCE[0]%/*}/.." && pwd)/build}/tests/ninep-proxy"
}

server_check() {
	diod_check || return 1
	[ -x "$(ninep_proxy)" ] ||
		{ echo "ninep-proxy not built: $(ninep_proxy) (run: make tools)" >&2; return 1; }
}

server_qemu_args() {
	local export=$1 out=$2
	diod_netdev "$(ninep_proxy) --log $out/ninep-proxy.log --counts $out/ninep-proxy.counts --cwd $out -- $(diod_command "$export" "$out")"
}
