#!/bin/bash
# A rebuilt kernel must be the new kernel.  kbuild assembles the boot
# image's piggy.S, which .incbin's the compressed vmlinux and spells out
# its size; ccache hashes piggy.S alone, so a change that keeps the
# compressed size gave a byte-identical piggy.S, ccache returned the
# previous piggy.o, and the bzImage was the kernel before the change.
#
# Two one-line changes of fs/posix_acl.c in the vanilla tree, built one
# after the other by scripts/kernel-build.sh: the first return -EINVAL
# of the file becomes -EFBIG, then -ENOSPC.  With the rig's config the
# two compress to the same size (2,408,362 bytes, 2026-12-06), and a
# bzImage built through ccache was byte-identical to the one before.
# Each built image must carry the vmlinux of its own build
# (bzimage-carries.sh), and the two must differ.  Then bzimage-carries.sh
# itself must refuse an image whose payload has the right size but other
# bytes (what a stale piggy.o gives), and another tree's image.  The tree
# is restored and rebuilt at the end (ccache makes that seconds).
#
# Prints one line, "stale-bzimage: ..."; exit 0 when all holds.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

src=$ACL9P_BUILD/linux/vanilla
obj=$src/acl9p-obj
file=fs/posix_acl.c
tmp=$(mktemp -d)
restore() {
	git -C "$src" checkout -q -- "$file"
	"$ACL9P_TOP/scripts/kernel-build.sh" vanilla >"$tmp/restore.log" 2>&1 ||
		echo "stale-bzimage: restoring the vanilla build failed: $(tail -n 1 "$tmp/restore.log")" >&2
	rm -rf "$tmp"
}
trap restore EXIT
fail() { echo "stale-bzimage: $*"; exit 1; }

[ -r "$obj/vmlinux" ] || fail "no vanilla build in $obj"
git -C "$src" diff --quiet -- "$file" || fail "$src/$file has changes of its own"
line=$(grep -n -m1 'return -EINVAL;' "$src/$file" | cut -d: -f1)
[ -n "$line" ] || fail "no 'return -EINVAL;' in $file"

sizes=
for e in EFBIG ENOSPC; do
	git -C "$src" checkout -q -- "$file"
	sed -i "${line}s/return -EINVAL;/return -$e;/" "$src/$file"
	ACL9P_KERNEL_OUT=$tmp/$e.bzImage "$ACL9P_TOP/scripts/kernel-build.sh" vanilla \
		>"$tmp/$e.log" 2>&1 || fail "build with -$e: $(tail -n 1 "$tmp/$e.log")"
	why=$("$ACL9P_TOP/scripts/bzimage-carries.sh" "$tmp/$e.bzImage" "$obj") ||
		fail "-$e: $why"
	sizes="$sizes $(stat -c %s "$obj/arch/x86/boot/compressed/vmlinux.bin.gz")"
done
cmp -s "$tmp/EFBIG.bzImage" "$tmp/ENOSPC.bzImage" &&
	fail "the -ENOSPC build gave the -EFBIG bzImage"

# A payload of the right size with one byte changed, halfway in.
cp "$tmp/ENOSPC.bzImage" "$tmp/forged.bzImage"
off=$(( $(stat -c %s "$tmp/forged.bzImage") / 2 ))
b=$(od -An -tu1 -j "$off" -N1 "$tmp/forged.bzImage" | tr -d ' ')
printf "$(printf '\\%03o' $(( (b + 1) % 256 )))" |
	dd of="$tmp/forged.bzImage" bs=1 seek="$off" conv=notrunc status=none
"$ACL9P_TOP/scripts/bzimage-carries.sh" "$tmp/forged.bzImage" "$obj" >/dev/null &&
	fail "bzimage-carries.sh accepts a payload with a byte changed"
patched=$ACL9P_BUILD/linux/patched/acl9p-obj
if [ -r "$patched/vmlinux" ] &&
	"$ACL9P_TOP/scripts/bzimage-carries.sh" "$tmp/ENOSPC.bzImage" "$patched" >/dev/null; then
	fail "bzimage-carries.sh accepts the vanilla image for the patched build"
fi
echo "stale-bzimage: two builds of the same compressed size (${sizes# }) carry their own vmlinux; a forged payload is refused"
