# The test matrix (tests/matrix.conf) for the rig's scripts; sourced,
# not run.  Needs lib.sh.
#
#   matrix_cells SET KERNEL...   print the cells of SET, one per line,
#                                for the given kernels
#   matrix_configs SET           print SET's cells without the kernel part
#   matrix_flavour SET           print the kernel flavour SET boots, if any
#   matrix_flavour_boot SET      print that flavour's command line words
#   matrix_arch SET              print the architecture SET's kernels
#                                and guest are built for (x86_64 when
#                                it has no "arch" line)
#   matrix_cell CELL             parse CELL into c_kernel c_server
#                                c_access c_cache c_opts, c_noacl (0|1),
#                                c_boot (its kernel command line words),
#                                c_export (the host filesystem its export
#                                is made on: empty for the build tree's)
#                                and c_mount (its 9p mount options, no
#                                transport); dies on a value the matrix
#                                does not have
#   matrix_mount CELL AXIS=VALUE  print the c_mount of CELL with one
#                                axis' value replaced (the rig's
#                                auxiliary mounts); run it in $(...)

ACL9P_MATRIX=${ACL9P_MATRIX:-$ACL9P_TOP/tests/matrix.conf}
declare -F kernels_all >/dev/null || . "$ACL9P_TOP/scripts/kernels.sh"

declare -a M_AXES=()
declare -A M_VALUES=() M_OPT=() M_FLAGS=() M_SET=() M_FLAVOUR=() M_FLAVOUR_BOOT=() M_ARCH=()
M_BASE=

matrix_load() {
	local kw a b c d line=0
	[ ${#M_AXES[@]} -eq 0 ] || return 0
	[ -r "$ACL9P_MATRIX" ] || die "matrix: $ACL9P_MATRIX not readable"
	while read -r kw a b c d; do
		line=$((line + 1))
		case $kw in
		'' | '#'*) ;;
		axes) read -r -a M_AXES <<<"$a $b $c $d" ;;
		base) M_BASE=$a ;;
		value)
			[ -n "$c" ] || die "matrix: line $line: value AXIS NAME OPTIONS [FLAGS]"
			M_VALUES[$a]="${M_VALUES[$a]:-}${M_VALUES[$a]:+ }$b"
			M_OPT[$a:$b]=$c M_FLAGS[$a:$b]=$d
			;;
		set) M_SET[$a]="${M_SET[$a]:-}${M_SET[$a]:+;}$b $c $d" ;;
		flavour) M_FLAVOUR[$a]=$b M_FLAVOUR_BOOT[$a]="$c${d:+ $d}" ;;
		arch)
			[ -n "$b" ] && [ -z "$c" ] || die "matrix: line $line: arch SET NAME"
			M_ARCH[$a]=$b
			;;
		*) die "matrix: line $line: unknown keyword '$kw'" ;;
		esac
	done < <(sed 's/[[:space:]]*#.*//' "$ACL9P_MATRIX")
	[ ${#M_AXES[@]} -gt 0 ] || die "matrix: no axes line in $ACL9P_MATRIX"
	# The kernel axis' values are the kernels of kernel/kernels.conf.
	[ -z "${M_VALUES[kernel]:-}" ] ||
		die "matrix: kernels are defined in kernel/kernels.conf, not by value lines"
	M_VALUES[kernel]=$(kernels_all | tr '\n' ' ')
	M_VALUES[kernel]=${M_VALUES[kernel]% }
}

# _matrix_has AXIS VALUE
_matrix_has() {
	[[ " ${M_VALUES[$1]:-} " == *" $2 "* ]]
}

# _matrix_product PREFIX AXIS-INDEX: the cells under one set line, whose
# per-axis values are in the associative array pick.
_matrix_product() {
	local prefix=$1 i=$2 v name
	if [ "$i" -ge ${#M_AXES[@]} ]; then
		name=${prefix%.-}
		echo "${name#.}"
		return
	fi
	for v in ${pick[${M_AXES[$i]}]}; do
		_matrix_product "$prefix.$v" $((i + 1))
	done
}

# _matrix_set_lines SET KERNELS: every cell of SET (with "@" includes)
_matrix_set_lines() {
	local set=$1 kernels=$2 spec word axis vals v
	local -a words
	local -A pick
	[ -n "${M_SET[$set]:-}" ] || die "matrix: no set '$set' in ${ACL9P_MATRIX#$ACL9P_TOP/}"
	while IFS= read -r -d ';' spec; do
		read -r -a words <<<"$spec"
		case ${words[0]:-} in
		@*) _matrix_set_lines "${words[0]#@}" "$kernels"; continue ;;
		esac
		pick=()
		for axis in "${M_AXES[@]}"; do pick[$axis]=-; done
		pick[kernel]=$kernels
		for word in "${words[@]}"; do
			axis=${word%%=*} vals=${word#*=}
			[ -n "${M_VALUES[$axis]:-}" ] || die "matrix: set $set: unknown axis '$axis'"
			[ "$vals" != '*' ] || vals=${M_VALUES[$axis]}
			for v in ${vals//,/ }; do
				_matrix_has "$axis" "$v" || die "matrix: set $set: $axis has no value '$v'"
			done
			pick[$axis]=${vals//,/ }
		done
		for axis in "${M_AXES[@]}"; do
			[ "${pick[$axis]}" != - ] || _matrix_has "$axis" - ||
				die "matrix: set $set: a line names no $axis (it has no value '-')"
		done
		_matrix_product "" 0
	done <<<"${M_SET[$set]};"
}

matrix_cells() {
	local set=$1
	shift
	matrix_load
	_matrix_set_lines "$set" "$*" | awk '!seen[$0]++'
}

# matrix_flavour SET: the kernel flavour SET boots (empty: the plain
# kernels), from a "flavour SET NAME [BOOT-WORDS]" line
matrix_flavour() {
	matrix_load
	echo "${M_FLAVOUR[$1]:-}"
}

# matrix_flavour_boot SET: the kernel command line words of its flavour
matrix_flavour_boot() {
	matrix_load
	echo "${M_FLAVOUR_BOOT[$1]:-}"
}

matrix_arch() {
	local a
	matrix_load
	a=${M_ARCH[$1]:-x86_64}
	arch_get "$a" kbuild >/dev/null
	echo "$a"
}

matrix_configs() {
	matrix_cells "$1" KERNEL | sed 's/^KERNEL\.//'
}

# _matrix_add_opts OPTS: merge comma-separated OPTS into c_mount; a key
# seen before keeps its place and takes the new value.
_matrix_add_opts() {
	local o k out= done= p
	[ "$1" != - ] || return 0
	for o in ${c_mount//,/ } ${1//,/ }; do
		k=${o%%=*}
		[[ " $done " != *" $k "* ]] || continue
		# the last occurrence of the key wins
		for p in ${c_mount//,/ } ${1//,/ }; do
			[ "${p%%=*}" != "$k" ] || o=$p
		done
		done="$done $k" out="$out${out:+,}$o"
	done
	c_mount=$out
}

matrix_cell() {
	local cell=$1 i v axis flags=
	local -a parts
	matrix_load
	IFS=. read -r -a parts <<<"$cell"
	local last=$((${#M_AXES[@]} - 1))
	if [ ${#parts[@]} -eq $last ] && _matrix_has "${M_AXES[$last]}" -; then
		parts+=(-)
	fi
	[ ${#parts[@]} -eq ${#M_AXES[@]} ] ||
		die "matrix: cell '$cell' does not name one value per axis ($(IFS=.; echo "${M_AXES[*]}"), see ${ACL9P_MATRIX#$ACL9P_TOP/})"
	c_mount=$M_BASE
	for i in "${!M_AXES[@]}"; do
		axis=${M_AXES[$i]} v=${parts[$i]}
		# Any kernel label may name a bzImage (custom, rigtest, bite).
		if [ "$axis" != kernel ]; then
			_matrix_has "$axis" "$v" ||
				die "matrix: cell '$cell': $axis has no value '$v' (values: ${M_VALUES[$axis]})"
			_matrix_add_opts "${M_OPT[$axis:$v]}"
			flags="$flags ${M_FLAGS[$axis:$v]}"
		fi
		printf -v "c_$axis" '%s' "$v"
	done
	c_noacl=0 c_boot= c_export= c_root=
	[[ " $flags " != *" noacl "* ]] || c_noacl=1
	for v in $flags; do
		[[ $v != boot=* ]] || c_boot="$c_boot${c_boot:+ }${v#boot=}"
		[[ $v != export=* ]] || c_export=${v#export=}
		[[ $v != root=* ]] || c_root=${v#root=}
	done
	case $c_root in
	'' | host) ;;
	*) die "matrix: cell '$cell': root=$c_root: a cell boots the initramfs or root=host" ;;
	esac
	case $c_export in
	'' | tmpfs) ;;
	*) die "matrix: cell '$cell': export=$c_export: the rig makes an export on tmpfs only" ;;
	esac
	[ -r "$ACL9P_TOP/server/$c_server.sh" ] ||
		die "matrix: cell '$cell': no server/$c_server.sh"
}

matrix_mount() {
	local cell=$1 axis=${2%%=*} v=${2#*=} i
	local -a parts
	matrix_load
	IFS=. read -r -a parts <<<"$cell"
	for i in "${!M_AXES[@]}"; do
		[ "${M_AXES[$i]}" != "$axis" ] || parts[$i]=$v
	done
	matrix_cell "$(IFS=.; echo "${parts[*]}")"
	echo "$c_mount"
}
