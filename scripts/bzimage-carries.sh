#!/bin/bash
# Does an x86 bzImage carry a given vmlinux?  Exit 0 when it does, 1
# with a one-line reason when it does not, 2 on a usage error.
#
#   bzimage-carries.sh BZIMAGE OBJDIR
#
# The boot image's payload (the setup header's payload_offset and
# payload_length, from the start of the protected-mode code) must be the
# compressed file that OBJDIR's arch/x86/boot/compressed/piggy.S
# .incbin's, and that file, decompressed, must begin with OBJDIR's
# vmlinux as kbuild strips it for the boot image (objcopy -R .comment
# -S; relocations may follow it).
#
# Why it is needed: piggy.S names its payload and spells out its size,
# but ccache hashes only piggy.S, never the file it .incbin's.  A change
# that leaves the compressed size as it was gives a byte-identical
# piggy.S, ccache hands back the previous piggy.o, and the new bzImage
# is the previous kernel.
set -eu

bz=${1:?usage: bzimage-carries.sh BZIMAGE OBJDIR}
obj=${2:?usage: bzimage-carries.sh BZIMAGE OBJDIR}
comp=$obj/arch/x86/boot/compressed
fail() { echo "bzimage-carries: $*"; exit 1; }

[ -r "$bz" ] || { echo "bzimage-carries: $bz unreadable" >&2; exit 2; }
[ -r "$obj/vmlinux" ] || { echo "bzimage-carries: $obj/vmlinux unreadable" >&2; exit 2; }

# le32 FILE OFFSET / u8 FILE OFFSET: a field of the setup header
le32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
u8() { od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '; }

[ "$(od -An -c -j 514 -N4 "$bz" | tr -d ' ')" = HdrS ] ||
	fail "$bz has no x86 boot protocol header"
setup_sects=$(u8 "$bz" 497)
[ "$setup_sects" -ne 0 ] || setup_sects=4
poff=$(le32 "$bz" 584)
plen=$(le32 "$bz" 588)
start=$(( (setup_sects + 1) * 512 + poff ))

# The payload file, as piggy.S names it (vmlinux.bin.gz, .xz, ...).
pay=$(sed -n 's/^[[:space:]]*\.incbin[[:space:]]*"\([^"]*\)".*/\1/p' "$comp/piggy.S" 2>/dev/null | head -n 1)
[ -n "$pay" ] || fail "$comp/piggy.S names no payload"
pay=$obj/$pay
[ -r "$pay" ] || fail "$pay, which piggy.S names, is missing"
[ "$plen" -eq "$(stat -c %s "$pay")" ] ||
	fail "the payload is $plen bytes, ${pay##*/} $(stat -c %s "$pay"): the bzImage is another kernel"
cmp -s <(tail -c +"$((start + 1))" "$bz" | head -c "$plen") "$pay" ||
	fail "the payload differs from ${pay##*/}: the bzImage is another kernel"

case $pay in
*.gz) unpack=(gzip -dc) ;;
*.xz) unpack=(xz -dc) ;;
*.zst) unpack=(zstd -dcq) ;;
*.lz4) unpack=(lz4 -dc) ;;
*.bz2) unpack=(bzip2 -dc) ;;
*.lzma) unpack=(xz -dc --format=lzma) ;;
*) fail "no decompressor known for ${pay##*/}" ;;
esac
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
objcopy -R .comment -S "$obj/vmlinux" "$tmp"
n=$(stat -c %s "$tmp")
# head closes the pipe early: the decompressor's SIGPIPE is no error
cmp -s -n "$n" <("${unpack[@]}" <"$pay" 2>/dev/null | head -c "$n") "$tmp" ||
	fail "${pay##*/} does not hold $obj/vmlinux: the payload is another kernel"
exit 0
