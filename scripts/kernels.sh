# shellcheck shell=bash
# The rig's kernels (kernel/kernels.conf) for its scripts; sourced, not
# run.  Needs lib.sh.
#
#   kernels_all                print every defined kernel, in file order
#   kernels_run                the kernels a run builds and boots: those
#                              KERNELS= names (space or comma separated),
#                              else those marked run=default; a kernel
#                              whose series lists no patch is left out
#                              with a note
#   kernel_known NAME          succeed when NAME is defined
#   kernel_get NAME FIELD      print a field (source, image, judged,
#                              version, series, config, flavours, run);
#                              empty when unset
#   kernel_judges              print "NAME AS" for each kernel judged as
#                              another (judged=)
#   kernel_tree NAME           its source tree, build/linux/NAME
#   kernel_repo NAME           the tree that holds its source's repository
#   kernel_series NAME         its series directory (absolute), if any
#   kernel_patches NAME        the patch files its series names, in order
#   kernel_fragments NAME [FLAVOUR [ARCH]]
#                              its config fragments (absolute), in order
#   arches_all                 print every defined architecture
#   arch_get ARCH FIELD        print an architecture's field (kbuild,
#                              qemu, deb, triplet, cflags, config, pkgs);
#                              empty when unset
#   arch_cc ARCH               the compiler command of its guest binaries
#   arch_suffix ARCH           "-ARCH", empty for x86_64: the part of a
#                              kernel's file and object directory names
#   kernel_compares            print "A B" for each compare line, "A B
#                              across" for kernels of different sources

ACL9P_KERNELS=${ACL9P_KERNELS:-$ACL9P_TOP/kernel/kernels.conf}

declare -a K_NAMES=() K_COMPARES=() K_ARCHES=()
declare -A K_FIELD=() K_ARCH=()

kernels_load() {
	local kw name kv key line=0
	local -a rest
	[ ${#K_NAMES[@]} -eq 0 ] || return 0
	[ -r "$ACL9P_KERNELS" ] || die "kernels: $ACL9P_KERNELS not readable"
	while read -r kw name rest_line; do
		line=$((line + 1))
		read -r -a rest <<<"$rest_line"
		case $kw in
		'') ;;
		kernel)
			[[ $name =~ ^[a-z][a-z0-9-]*$ ]] ||
				die "kernels: line $line: kernel name '$name' (lower case, digits, '-')"
			! kernel_known "$name" || die "kernels: line $line: $name defined twice"
			K_NAMES+=("$name")
			for kv in "${rest[@]}"; do
				key=${kv%%=*}
				case $key in
				source | image | judged | version | series | config | flavours | run) ;;
				*) die "kernels: line $line: unknown field '$key'" ;;
				esac
				K_FIELD[$name:$key]=${kv#*=}
			done
			# exactly one of source= (a tree the rig builds) and
			# image= (a distribution's binary package)
			if [ -n "${K_FIELD[$name:source]:-}" ] && [ -n "${K_FIELD[$name:image]:-}" ]; then
				die "kernels: line $line: $name has both source= and image="
			fi
			[ -n "${K_FIELD[$name:source]:-}${K_FIELD[$name:image]:-}" ] ||
				die "kernels: line $line: $name has neither source= nor image="
			if [ -n "${K_FIELD[$name:image]:-}" ]; then
				for key in series config flavours; do
					[ -z "${K_FIELD[$name:$key]:-}" ] ||
						die "kernels: line $line: $name: $key= is for a kernel the rig builds, not an image="
				done
			fi
			case ${K_FIELD[$name:run]:-asked} in
			default | asked) ;;
			*) die "kernels: line $line: run=${K_FIELD[$name:run]} (default or asked)" ;;
			esac
			;;
		arch)
			[[ $name =~ ^[a-z][a-z0-9_]*$ ]] ||
				die "kernels: line $line: arch name '$name' (lower case, digits, '_')"
			[ -z "${K_ARCH[$name:kbuild]:-}" ] || die "kernels: line $line: arch $name defined twice"
			K_ARCHES+=("$name")
			for kv in "${rest[@]}"; do
				key=${kv%%=*}
				case $key in
				kbuild | qemu | deb | triplet | cflags | config | pkgs) ;;
				*) die "kernels: line $line: arch $name: unknown field '$key'" ;;
				esac
				K_ARCH[$name:$key]=${kv#*=}
			done
			for key in kbuild qemu deb triplet; do
				[ -n "${K_ARCH[$name:$key]:-}" ] ||
					die "kernels: line $line: arch $name has no $key="
			done
			;;
		compare)
			[ ${#rest[@]} -eq 1 ] || die "kernels: line $line: compare A B"
			K_COMPARES+=("$name ${rest[0]}")
			;;
		*) die "kernels: line $line: unknown keyword '$kw'" ;;
		esac
	done < <(sed -e 's/[[:space:]]*#.*//' -e 's/^[[:space:]]*$//' "$ACL9P_KERNELS")
	[ ${#K_NAMES[@]} -gt 0 ] || die "kernels: no kernel in $ACL9P_KERNELS"
	[ -n "${K_ARCH[x86_64:kbuild]:-}" ] || die "kernels: no arch x86_64 in $ACL9P_KERNELS"
	local c a b
	for c in "${K_COMPARES[@]}"; do
		read -r a b <<<"$c"
		if ! kernel_known "$a" || ! kernel_known "$b"; then
			die "kernels: compare $c: not two defined kernels"
		fi
	done
	# A series kernel is a worktree of its source's repository; a kernel
	# judged as another names a defined kernel the rig builds.
	for name in "${K_NAMES[@]}"; do
		a=${K_FIELD[$name:judged]:-}
		if [ -n "$a" ]; then
			kernel_known "$a" && [ -n "${K_FIELD[$a:source]:-}" ] ||
				die "kernels: $name: judged=$a is not a kernel the rig builds"
		fi
		[ -n "${K_FIELD[$name:source]:-}" ] || continue
		[ -n "$(_kernel_repo_owner "$name")" ] ||
			die "kernels: $name: no kernel of ${K_FIELD[$name:source]} without a series owns its repository"
	done
}

kernel_known() {
	local n
	for n in "${K_NAMES[@]}"; do [ "$n" != "$1" ] || return 0; done
	return 1
}

kernels_all() {
	kernels_load
	printf '%s\n' "${K_NAMES[@]}"
}

kernel_get() {
	kernels_load
	kernel_known "$1" || die "kernels: no kernel '$1' in ${ACL9P_KERNELS#"$ACL9P_TOP"/} (kernels: ${K_NAMES[*]})"
	echo "${K_FIELD[$1:$2]:-}"
}

_kernel_repo_owner() {
	local n
	for n in "${K_NAMES[@]}"; do
		if [ "${K_FIELD[$n:source]:-}" = "${K_FIELD[$1:source]}" ] &&
			[ -z "${K_FIELD[$n:series]:-}" ]; then
			echo "$n"
			return
		fi
	done
}

kernel_tree() {
	kernel_get "$1" source >/dev/null
	echo "$ACL9P_BUILD/linux/$1"
}

kernel_repo() {
	kernel_get "$1" source >/dev/null
	echo "$ACL9P_BUILD/linux/$(_kernel_repo_owner "$1")"
}

kernel_series() {
	local s
	s=$(kernel_get "$1" series)
	[ -z "$s" ] || echo "$ACL9P_TOP/$s"
}

kernel_patches() {
	local dir
	dir=$(kernel_series "$1")
	[ -n "$dir" ] && [ -f "$dir/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$dir/series" | grep -v '^$' || true
}

kernel_fragments() {
	local f
	echo "$ACL9P_TOP/kernel/config/acl9p.config"
	for f in $(kernel_get "$1" config | tr ',' ' '); do
		echo "$ACL9P_TOP/kernel/config/$f"
	done
	if [ -n "${2:-}" ]; then
		[[ ",$(kernel_get "$1" flavours)," == *",$2,"* ]] ||
			die "kernels: $1 has no flavour '$2' (flavours=$(kernel_get "$1" flavours))"
		echo "$ACL9P_TOP/kernel/config/$2.config"
	fi
	f=$(arch_get "${3:-x86_64}" config)
	[ -z "$f" ] || echo "$ACL9P_TOP/kernel/config/$f"
}

arches_all() {
	kernels_load
	printf '%s\n' "${K_ARCHES[@]}"
}

arch_get() {
	kernels_load
	[ -n "${K_ARCH[$1:kbuild]:-}" ] ||
		die "kernels: no arch '$1' in ${ACL9P_KERNELS#"$ACL9P_TOP"/} (arches: ${K_ARCHES[*]})"
	echo "${K_ARCH[$1:$2]:-}"
}

# arch_cc ARCH: the host's compiler command for ARCH's guest binaries,
# one word a line (gcc and the architecture's cflags=)
arch_cc() {
	echo gcc
	arch_get "$1" cflags | tr ',' '\n' | sed '/^$/d'
}

arch_suffix() {
	arch_get "$1" kbuild >/dev/null
	[ "$1" = x86_64 ] || echo "-$1"
}

kernels_run() {
	local n
	local -a want=()
	kernels_load
	if [ -n "${KERNELS:-}" ]; then
		read -r -a want <<<"${KERNELS//,/ }"
		for n in "${want[@]}"; do kernel_get "$n" source >/dev/null; done
	else
		for n in "${K_NAMES[@]}"; do
			[ "${K_FIELD[$n:run]:-asked}" != default ] || want+=("$n")
		done
	fi
	for n in "${want[@]}"; do
		if [ -n "$(kernel_get "$n" series)" ] && [ -z "$(kernel_patches "$n")" ]; then
			note "kernels: $n: its series lists no patch, left out"
			continue
		fi
		echo "$n"
	done
}

# The source a kernel's results are judged by: its own, or for an image
# kernel that of the kernel it is judged as (Debian's linux-image of a
# version is its linux-source of that version, configured by Debian).
_kernel_judged_source() {
	local as
	as=$(kernel_get "$1" judged)
	kernel_get "${as:-$1}" source
}

kernel_judges() {
	local n
	kernels_load
	for n in "${K_NAMES[@]}"; do
		[ -z "${K_FIELD[$n:judged]:-}" ] || echo "$n ${K_FIELD[$n:judged]}"
	done
}

kernel_compares() {
	local c a b
	kernels_load
	for c in "${K_COMPARES[@]}"; do
		read -r a b <<<"$c"
		if [ "$(_kernel_judged_source "$a")" = "$(_kernel_judged_source "$b")" ]; then
			echo "$a $b"
		else
			echo "$a $b across"
		fi
	done
}
