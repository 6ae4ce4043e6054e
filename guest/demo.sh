# Run by the guest init in "make demo": sets an ACL on the share and
# shows it as the guest sees it.  The host prints its own view next to it.
set -u
cd /mnt/share || exit 1
echo "hello from the guest" > demo.txt
mkdir -p demo.dir
setfacl -m u:1001:rw-,g:1002:r--,m::rw- demo.txt || echo "setfacl demo.txt failed: $?"
setfacl -d -m u:1001:r-x demo.dir || echo "setfacl -d demo.dir failed: $?"
echo "=== getfacl -n demo.txt"
getfacl -n demo.txt 2>&1
echo "=== getfacl -n demo.dir"
getfacl -n demo.dir 2>&1
sync
