# Run by the guest init in ACL9P_MODE=wire (scripts/wire.sh): ACL
# operations on the share, each after a marker, so that the host can
# count the 9P requests every one of them sends.
#
# A marker is a utimensat() of the share's root, which the root's
# pinned dentry sends as one Tsetattr and nothing else, with the marker's
# number as its mtime (MARK_EPOCH + N seconds): no operation here sets
# such a time, so the host splits QEMU's request log at those setattrs.
# Slice N is what follows marker N ("op N NAME" names it).
set -u
cd /mnt/share || exit 1
n=0
MARK_EPOCH=1000000000
mark() {
	n=$((n + 1))
	touch -m -d "@$((MARK_EPOCH + n))" /mnt/share
	echo "op $n $1"
}

# Set-up, counted too (it is the first slice), but not judged.
mark setup
echo data > f
mkdir d
# five entries: u::, u:1001, g::, m::, o::
setfacl -m u:1001:rw- f
setfacl -d -m u:1001:r-x d

# Nothing between two markers: what the marker itself leaves behind
# (with cache=loose the root's attributes, invalidated by the marker's
# setattr, are fetched again: one Tgetattr in every slice).
mark baseline
mark getfacl_file
getfacl -n f >/dev/null
mark getfacl_file_again
getfacl -n f >/dev/null
mark getfacl_dir
getfacl -n d >/dev/null
mark stat_file
stat f >/dev/null
mark setfacl_file
setfacl -m u:1002:r-- f
mark chmod_file
chmod 0640 f
mark create_in_dir
touch d/new
mark end
sync
