# Shared shell helpers for the acl9p scripts; sourced, not run.
# Paths are absolute so a script may be called from anywhere.

ACL9P_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ACL9P_BUILD=${ACL9P_BUILD:-$ACL9P_TOP/build}

die() {
	echo "acl9p: $*" >&2
	exit 1
}

note() {
	echo "acl9p: $*" >&2
}

# now_ms: wall clock in milliseconds, for the per-cell timings.
now_ms() {
	date +%s%3N
}
