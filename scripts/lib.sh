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

# kbuild_env: the environment every kernel build of the rig uses: ccache
# under build/, and a fixed identity and time so init/version.c, and
# with it vmlinux, are not rebuilt when nothing else changed.
#
# ccache in depend mode: kbuild asks gcc for a dependency file
# (-Wp,-MMD), which is all depend mode needs to know the headers.  In
# its default mode ccache runs the preprocessor once more on every miss
# to look for a preprocessed match; on 25 objects of fs/ that made a
# cold compile 54 % slower than gcc alone (24.4 s against 15.9 s),
# depend mode 3.5 % (16.4 s), and a clean build is almost all misses.
kbuild_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$ACL9P_BUILD/ccache}
	export CCACHE_BASEDIR=$ACL9P_BUILD
	export CCACHE_DEPEND=1
	export KBUILD_BUILD_TIMESTAMP="2022-09-22 00:00:00 UTC"
	export KBUILD_BUILD_USER=acl9p KBUILD_BUILD_HOST=acl9p KBUILD_BUILD_VERSION=1
}

# kbuild_bzimage SRC OBJ [MAKE ARGS...]: build OBJ/arch/x86/boot/bzImage
# from SRC, vmlinux through ccache and the boot image without it, then
# check that the image carries that vmlinux.  The boot image's piggy.S
# .incbin's the compressed vmlinux and spells out its size, and ccache
# hashes piggy.S alone: when a change leaves the compressed size as it
# was, ccache returns the previous piggy.o and the new bzImage is the
# previous kernel (two one-line changes of fs/posix_acl.c did that,
# 2,408,362 bytes compressed both times: tests/rig/stale-bzimage.sh).
# CCACHE_DISABLE keeps kbuild's command lines as they are, so the second
# make rebuilds nothing of vmlinux; the boot image's dozen objects
# compile in seconds.  The make output goes to standard output; a stale
# image fails with the reason on standard error.
kbuild_bzimage() {
	local src=$1 obj=$2 why
	shift 2
	make -C "$src" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"$(nproc)" "$@" vmlinux &&
	CCACHE_DISABLE=1 make -C "$src" O="$obj" CC="ccache gcc" \
		HOSTCC="ccache gcc" -j"$(nproc)" "$@" bzImage || return
	why=$("$ACL9P_TOP/scripts/bzimage-carries.sh" "$obj/arch/x86/boot/bzImage" "$obj") || {
		echo "$why" >&2
		return 1
	}
}

# ensure_worktree REPO DIR COMMIT: a detached worktree of the kernel
# repository REPO at DIR (created at COMMIT when missing; left where it
# is otherwise).
ensure_worktree() {
	local repo=$1
	[ -e "$2/.git" ] && return 0
	rm -rf "$2"
	git -C "$repo" worktree prune
	git -C "$repo" worktree add -q --detach "$2" "$3"
}

# pick_kernel: sets kernel and label for a single boot (demo, shell):
# KERNEL= when given, else patched once the series lists patches, else
# vanilla.
pick_kernel() {
	if [ -n "${KERNEL:-}" ]; then
		kernel=$KERNEL label=custom
	elif "$ACL9P_TOP/scripts/series-available.sh"; then
		kernel=$ACL9P_BUILD/kernels/patched.bzImage label=patched
	else
		kernel=$ACL9P_BUILD/kernels/vanilla.bzImage label=vanilla
	fi
}
