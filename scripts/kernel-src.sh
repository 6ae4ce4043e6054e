#!/bin/bash
# Prepare the source tree of one kernel of kernel/kernels.conf,
# build/linux/NAME.
#
#   A kernel without a series is its Debian package's tarball
#   (/usr/src/PKG.tar.xz), extracted once and committed to a git
#   repository, tagged "pristine".
#   A kernel with a series is a git worktree of its source's repository
#   with the series applied.
#
# The series is applied with "git apply --cached" into a private index,
# one commit per patch (refs/acl9p/NAME/step/NNNN, used by
# check-series), so a patch that does not apply exactly fails loudly and
# the worktree is never left half-patched.  The worktree is then moved
# to the resulting commit with "git checkout", which rewrites only the
# files whose contents differ: changing one patch rebuilds only what it
# touches.
set -eu
. "$(dirname "$0")/lib.sh"
. "$ACL9P_TOP/scripts/kernels.sh"

name=${1:?usage: kernel-src.sh KERNEL (kernel/kernels.conf: $(kernels_all | tr '\n' ' '))}
pkg=$(kernel_get "$name" source)
want_version=$(kernel_get "$name" version)
tarball=${ACL9P_LINUX_TARBALL:-/usr/src/$pkg.tar.xz}
repo=$(kernel_repo "$name")
series_dir=$(kernel_series "$name")

git_q() {
	git -C "$repo" -c user.name=acl9p -c user.email=acl9p@example.invalid \
		-c advice.detachedHead=false "$@"
}

ensure_pristine() {
	local have
	[ -e "$repo/.git/acl9p-pristine" ] && return 0
	[ -r "$tarball" ] || die "kernel: $tarball missing (run: make deps)"
	have=$(dpkg-query -W -f '${Version}' "$pkg" 2>/dev/null || echo unknown)
	[ -z "$want_version" ] || [ "$have" = "$want_version" ] ||
		note "kernel: $pkg is $have here; the rig's figures are from $want_version"
	note "kernel: extracting ${tarball##*/} ($have) into ${repo#"$ACL9P_TOP"/}"
	rm -rf "$repo"
	mkdir -p "$repo"
	tar -xf "$tarball" -C "$repo" --strip-components=1
	git_q init -q
	# Debian's packaging .gitignore ignores every top-level path.
	git_q add -f -A .
	GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000" \
		git_q commit -q -m "$pkg $have as shipped by Debian"
	git_q tag -f pristine >/dev/null
	touch "$repo/.git/acl9p-pristine"
}

apply_series() {
	local wt idx key old parent tree n subj p
	wt=$(kernel_tree "$name")
	idx=$ACL9P_BUILD/linux/$name.series.index
	[ -n "$(kernel_patches "$name")" ] || die "kernel: $series_dir/series lists no patch"

	# The key names the exact series; an unchanged series is a no-op.
	key=$( (cat "$series_dir/series"; for p in $(kernel_patches "$name"); do
		cat "$series_dir/$p" 2>/dev/null || echo "missing $p"; done) |
		sha1sum | cut -d' ' -f1)
	old=$(git_q rev-parse -q --verify "refs/acl9p/$name/series-$key" || true)
	if [ -z "$old" ]; then
		rm -f "$idx"
		GIT_INDEX_FILE=$idx git_q read-tree pristine
		parent=$(git_q rev-parse pristine)
		git_q for-each-ref --format='%(refname)' "refs/acl9p/$name/step" |
			while read -r ref; do git_q update-ref -d "$ref"; done
		n=0
		for p in $(kernel_patches "$name"); do
			n=$((n + 1))
			[ -f "$series_dir/$p" ] || die "kernel: $name's series names $p, which does not exist"
			if ! GIT_INDEX_FILE=$idx git_q apply --cached --whitespace=nowarn \
				"$series_dir/$p" 2>"$ACL9P_BUILD/linux/apply.err"; then
				cat "$ACL9P_BUILD/linux/apply.err" >&2
				die "kernel: $name: patch $n ($p) does not apply"
			fi
			tree=$(GIT_INDEX_FILE=$idx git_q write-tree)
			subj=$(sed -n 's/^Subject: \(\[[^]]*\] \)\{0,1\}//p' "$series_dir/$p" | head -n 1)
			parent=$(GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000" \
				git_q commit-tree "$tree" -p "$parent" -m "${subj:-$p}")
			git_q update-ref "refs/acl9p/$name/step/$(printf %04d "$n")" "$parent"
		done
		rm -f "$idx"
		git_q update-ref "refs/acl9p/$name/series-$key" "$parent"
		old=$parent
	fi

	ensure_worktree "$repo" "$wt" "$old"
	if [ "$(git -C "$wt" rev-parse HEAD)" != "$old" ]; then
		git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$old"
	fi
}

ensure_pristine
[ -z "$series_dir" ] || apply_series
