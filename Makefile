# acl9p: POSIX ACLs over 9p, patched versus vanilla Linux 6.1.
#
#   make demo    (default) getfacl in the guest and on the host side by
#                side for each server (patched kernel); make check runs
#                the matrix
#   make check   run the test matrix; the last line counts the results
#   make shell   boot a guest with the share mounted and a shell
#                (ROOT=host: the host's / as the guest's root, every
#                host tool in the guest)
#   make run     CMD='getfacl -R .': one command in the share of a
#                host-root guest, its output and exit status ours
#   make kernel  build the patched kernel (make kernel-NAME: a kernel of
#                kernel/kernels.conf; make kernels: those of the run)
#   make guest   build the initramfs (init, tests, getfacl/setfacl) and
#                build/tests/manifest, the tests every cell must report
#   make deps    install the Debian packages that are missing
#   make check-series  bisectability, warnings and checkpatch of the series
#                (SERIES=NAME: another series kernel, e.g. upstream-fixed)
#   make bite    put known bugs into the ACL code, see which tests catch them
#   make raw-acl-probe  in-kernel callers of the raw xattr path for ACL
#                names on ACL api inodes, found by a WARN_ONCE run
#   make wire    9P requests per ACL operation (QEMU's trace events),
#                patched next to vanilla, judged by tests/expected/wire-bounds
#   make bench   what ACL operations cost, patched against vanilla, in
#                alternating boots: build/report/bench.md and its plots
#                (ROUNDS=4; BENCH_* variables: scripts/bench.sh)
#   make fuzz    ninep-proxy mutates every ACL reply of the share, a guest
#                program makes calls, acl9p-fuzzjudge checks each outcome
#                against the bytes sent (FUZZ_SEED, FUZZ_COUNT,
#                FUZZ_KERNEL: scripts/fuzz.sh)
#
# Variables: MATRIX=set (a set of tests/matrix.conf, default "default";
# MATRIX=full for every axis), KERNELS=names (kernels of
# kernel/kernels.conf to build and run, default those marked
# run=default, e.g. KERNELS=vanilla,patched,upstream; debian61 and
# debian612 are Debian's own kernels, fetched, with modules),
# KERNEL=/path/bzImage (test your own kernel, as "custom"; a name of
# kernel/kernels.conf is KERNELS=NAME), CELL=glob (cells of the set to run, e.g.
# CELL='*.diod.user.*'; make shell: one cell name), TESTS=glob (test
# binaries to run, without the acl9p_ prefix, e.g. TESTS=hostchange),
# JOBS (cells in parallel, default 2), RACE_MS (how long a race test
# searches when nothing bites, default 1000; it stops at the first error).

SHELL := /bin/bash
B := $(CURDIR)/build
CFLAGS_HOST := -std=gnu11 -O2 -Wall -Wextra -Werror

KERNEL ?=
KERNELS ?=
# KERNEL=NAME, a kernel of kernel/kernels.conf rather than a file (make
# check KERNEL=debian61), is KERNELS=NAME.
ifneq ($(KERNEL),)
ifeq ($(wildcard $(KERNEL)),)
ifneq ($(shell scripts/kernel-list.sh all | grep -qxF '$(KERNEL)' && echo y),)
override KERNELS := $(KERNEL)
override KERNEL :=
endif
endif
endif
MATRIX ?= default
CELL ?=
TESTS ?=
JOBS ?= 2
RACE_MS ?=
ROOT ?=
CMD ?=
export MATRIX KERNEL KERNELS CELL TESTS JOBS RACE_MS ROOT CMD

.PHONY: all demo check shell run deps kernel kernels guest \
	tools virtiofsd check-series bite raw-acl-probe wire bench fuzz flaky cover-results clean distclean

all: demo

deps:
	@scripts/deps.sh

kernel-%: deps
	@scripts/kernel-build.sh $*

kernel: kernel-patched

# The kernels "make check" compares (scripts/kernel-list.sh run: KERNELS=,
# else those kernel/kernels.conf marks run=default; a series kernel whose
# series lists no patch is left out); none with KERNEL=.
kernels: deps
	@if [ -z "$(KERNEL)" ]; then \
		export ACL9P_KERNEL_FLAVOUR=$$(scripts/matrix-flavour.sh "$(MATRIX)") && \
		export ACL9P_KERNEL_ARCH=$$(scripts/matrix-flavour.sh --arch "$(MATRIX)") && \
		for k in $$(scripts/kernel-list.sh run); do \
			scripts/kernel-build.sh $$k || exit 1; \
		done; \
	fi

# The virtiofs cells' server: Debian's virtiofsd with server/virtiofsd/'s
# fix (scripts/virtiofsd-build.sh; make check builds it for a set that
# has virtiofs cells).
virtiofsd:
	@MATRIX=virtiofs scripts/deps.sh
	@scripts/virtiofsd-build.sh

tools: deps
	@scripts/kernel-src.sh vanilla
	@mkdir -p $(B)/guest $(B)/tests $(B)/report
	@cc -O2 -o $(B)/guest/gen_init_cpio $(B)/linux/vanilla/usr/gen_init_cpio.c
	@cc $(CFLAGS_HOST) -o $(B)/tests/acl9p-hostcheck tests/host/hostcheck.c
	@cc $(CFLAGS_HOST) -o $(B)/tests/acl9p-hostctl tests/host/hostctl.c
	@$(MAKE) -s -C server/ninep-proxy O=$(B)/tests
	@cc $(CFLAGS_HOST) -o $(B)/tests/acl9p-p9trace tests/host/p9trace.c
	@cc $(CFLAGS_HOST) -Iserver/ninep-proxy -o $(B)/tests/acl9p-fuzzjudge \
		tests/host/fuzzjudge.c server/ninep-proxy/aclxattr.c
	@$(MAKE) -s -C tests/report O=$(B)/report

# The x86_64 guest (scripts/guest-build.sh; another architecture's is
# built by check.sh for a set of that architecture).
guest: tools
	@scripts/guest-build.sh

# The run's time, appended to build/logs/check.time for make bench's
# report: "DATE SECONDS MATRIX=SET rc=STATUS whole|part" (part: CELL,
# TESTS, KERNEL or RACE_MS narrowed or changed it).
check: kernels guest
	@start=$$(date +%s); rc=0; scripts/check.sh || rc=$$?; \
	part=whole; [ -z "$(CELL)$(TESTS)$(KERNEL)$(RACE_MS)" ] || part=part; \
	mkdir -p $(B)/logs; \
	echo "$$(date -u +%Y-%m-%dT%H:%M:%SZ) $$(( $$(date +%s) - start )) MATRIX=$(MATRIX) rc=$$rc $$part" \
		>>$(B)/logs/check.time; \
	exit $$rc

# Only the kernel it boots (demo.sh builds it): a first look should not
# cost two kernel builds and the matrix.
demo: deps guest
	@scripts/demo.sh

# Only the cell's kernel: shell.sh builds it (a no-op build is 8 s).
shell: deps guest
	@scripts/shell.sh $(CELL)

run: deps guest
	@scripts/shell.sh --run $(CELL)

SERIES ?= patched
check-series: deps
	@scripts/check-series.sh $(SERIES)

# Rewrite the Results section of the cover letter from the last runs.
cover-results:
	@scripts/cover-results.sh

# Put each known bug of tests/bugs/ into the patched kernel and show which
# tests catch it.
bite: deps guest
	@scripts/bite.sh

# Put a WARN_ONCE where the raw xattr path refuses ACL names (tests/probes/)
# and list the callers the cells of make check reach there.
raw-acl-probe: deps guest
	@scripts/raw-acl-probe.sh

# The requests each ACL operation sends (QEMU's server counts them).
wire: kernels guest
	@scripts/wire.sh

# The client against ACL replies the proxy mutates (scripts/fuzz.sh): only
# the kernels it boots are built, by hand (a flavour: make kernels MATRIX=debug).
fuzz: deps guest
	@scripts/fuzz.sh

# How often each race test fails, per cell, vanilla against the series
# (scripts/flaky.sh): fails where the series fails significantly more.
flaky: kernels guest
	@scripts/flaky.sh

# What ACL operations cost, patched against vanilla: build/report/bench.md.
# bench.sh does what "deps kernels guest" would, timing each step for
# the report's section on the rig itself.
bench:
	@scripts/bench.sh

clean:
	rm -rf $(B)/results $(B)/run $(B)/logs $(B)/guest $(B)/tests $(B)/report $(B)/bench

distclean:
	rm -rf $(B)
