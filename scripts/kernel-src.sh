#!/bin/bash
# Prepare a kernel source tree under build/linux/.
#
#   kernel-src.sh vanilla   pristine linux-source-6.1, extracted once and
#                           committed to a git repository (build/linux/vanilla)
#   kernel-src.sh patched   the same tree with kernel/patches/series applied
#                           (a git worktree, build/linux/patched)
#
# The series is applied with "git apply --cached" into a private index,
# one commit per patch (refs/acl9p/step/NNNN, used by check-series), so
# a patch that does not apply exactly fails loudly and the worktree is
# never left half-patched.  The worktree is then moved to the resulting
# commit with "git checkout", which rewrites only the files whose
# contents differ: changing one patch rebuilds only what it touches.
set -eu
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: kernel-src.sh vanilla|patched}
tarball=${ACL9P_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
repo=$ACL9P_BUILD/linux/vanilla
series_dir=$ACL9P_TOP/kernel/patches
series=$series_dir/series

git_q() {
	git -C "$repo" -c user.name=acl9p -c user.email=acl9p@example.invalid \
		-c advice.detachedHead=false "$@"
}

ensure_pristine() {
	[ -e "$repo/.git/acl9p-pristine" ] && return 0
	[ -r "$tarball" ] || die "kernel: $tarball missing (run: make deps)"
	note "kernel: extracting ${tarball##*/} into build/linux/vanilla"
	rm -rf "$repo"
	mkdir -p "$repo"
	tar -xf "$tarball" -C "$repo" --strip-components=1
	git_q init -q
	# Debian's packaging .gitignore ignores every top-level path.
	git_q add -f -A .
	GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000" \
		git_q commit -q -m "linux-source-6.1 as shipped by Debian"
	git_q tag -f pristine >/dev/null
	touch "$repo/.git/acl9p-pristine"
}

# series_patches: the patch files named in the series file, in order.
series_patches() {
	[ -f "$series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series" | grep -v '^$' || true
}

apply_series() {
	local wt=$ACL9P_BUILD/linux/patched idx key old parent tree n subj p
	idx=$ACL9P_BUILD/linux/series.index
	[ -n "$(series_patches)" ] || die "kernel: kernel/patches/series lists no patch"

	# The key names the exact series; an unchanged series is a no-op.
	key=$( (cat "$series"; for p in $(series_patches); do
		cat "$series_dir/$p" 2>/dev/null || echo "missing $p"; done) |
		sha1sum | cut -d' ' -f1)
	old=$(git_q rev-parse -q --verify "refs/acl9p/series-$key" || true)
	if [ -z "$old" ]; then
		rm -f "$idx"
		GIT_INDEX_FILE=$idx git_q read-tree pristine
		parent=$(git_q rev-parse pristine)
		git_q for-each-ref --format='%(refname)' refs/acl9p/step |
			while read -r ref; do git_q update-ref -d "$ref"; done
		n=0
		for p in $(series_patches); do
			n=$((n + 1))
			[ -f "$series_dir/$p" ] || die "kernel: series names $p, which does not exist"
			if ! GIT_INDEX_FILE=$idx git_q apply --cached --whitespace=nowarn \
				"$series_dir/$p" 2>"$ACL9P_BUILD/linux/apply.err"; then
				cat "$ACL9P_BUILD/linux/apply.err" >&2
				die "kernel: patch $n ($p) does not apply"
			fi
			tree=$(GIT_INDEX_FILE=$idx git_q write-tree)
			subj=$(sed -n 's/^Subject: \(\[[^]]*\] \)\{0,1\}//p' "$series_dir/$p" | head -n 1)
			parent=$(GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000" \
				git_q commit-tree "$tree" -p "$parent" -m "${subj:-$p}")
			git_q update-ref "refs/acl9p/step/$(printf %04d "$n")" "$parent"
		done
		rm -f "$idx"
		git_q update-ref "refs/acl9p/series-$key" "$parent"
		old=$parent
	fi

	ensure_worktree "$wt" "$old"
	if [ "$(git -C "$wt" rev-parse HEAD)" != "$old" ]; then
		git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$old"
	fi
}

ensure_pristine
case $variant in
vanilla) ;;
patched) apply_series ;;
*) die "kernel: unknown variant '$variant' (vanilla|patched)" ;;
esac
