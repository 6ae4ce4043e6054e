# diod, Debian's 9p server, serving the export to one guest.
#
# QEMU user networking runs one diod per guest TCP connection on
# DIOD_ADDR:DIOD_PORT (guestfwd ... cmd:), talking 9p on its
# stdin/stdout: no host port is opened, restrict=on keeps the guest off
# every other address, nothing leaves the machine.  -n: no munge
# authentication, -c /dev/null: no config file, so only these options
# apply.  -N: take the guest's numeric uids and gids as they are; the
# test users (1001-1003) have no entry in the host's passwd, and with
# the user database diod refuses their attach ("user lookup: Operation
# not permitted").  diod then sets no supplementary groups for them.
# diod serves by path: the guest names the export as its aname.
DIOD_ADDR=10.0.2.100
DIOD_PORT=564
SERVER_XATTR_PREFIX=
SERVER_CANNOT=

# server/ninep-proxy.sh sources this file and puts its proxy between
# the guest and this same diod: diod_check, diod_command and
# diod_netdev are what the two share.
diod_check() {
	command -v diod >/dev/null ||
		{ echo "diod not installed (run: make deps)" >&2; return 1; }
}

# diod_command EXPORT OUTDIR: diod serving EXPORT on its stdin/stdout,
# logging to OUTDIR/diod.log (one line, words without quoting: QEMU
# splits it as a shell would).
diod_command() {
	echo "$(command -v diod) -f -n -N -c /dev/null --rfdno 0 --wfdno 1 -e $1 -L $2/diod.log"
}

# diod_netdev CMD: the QEMU arguments of a user network on which each
# guest connection to DIOD_ADDR:DIOD_PORT runs CMD.
diod_netdev() {
	case $1 in
	*,*) echo "diod: paths must not contain commas (QEMU option syntax)" >&2; return 2 ;;
	esac
	echo "-netdev"
	echo "user,id=net0,restrict=on,guestfwd=tcp:$DIOD_ADDR:$DIOD_PORT-cmd:$1"
	echo "-device"
	echo "virtio-net-pci,netdev=net0"
}

server_check() {
	diod_check
}

# Debian's diod 1.0.24 sometimes dies of SIGSEGV on an EOF with fids
# open and raises its own core limit: its core lands in its working
# directory, which is QEMU's unless env -C gives it the cell's (a 288 MB
# core in the source tree came of a debug run, 2026-12-04).  Absolute,
# since the log path is then read from there.
server_qemu_args() {
	local out
	out=$(cd "$2" && pwd)
	diod_netdev "env -C $out $(diod_command "$1" "$out")"
}

server_source() {
	echo "$DIOD_ADDR"
}

server_transport() {
	echo "trans=tcp,port=$DIOD_PORT,aname=$1,uname=root"
}

# The guest's address on QEMU's user network, no DHCP.
server_cmdline() {
	echo "ip=10.0.2.15::10.0.2.2:255.255.255.0::eth0:off"
}
