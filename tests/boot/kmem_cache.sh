# Named slab caches, their kmem events and FIELD.function filters, from
# Linux's documentation: /proc/slabinfo lists the kernel's caches with
# their object sizes; kmem:kmem_cache_alloc and kmem:kmem_cache_free fire
# from a ring-3 shell's forks, execs, opens and exits with Linux 6.12's
# formats and lines; `call_site.function == NAME` (or 0xADDR, anywhere in
# the function) keeps only that function's events, `!=` drops them, and
# bad uses are refused with Linux 6.12's messages (texts from the rig).
T=/sys/kernel/tracing
. /spoor/lib/tap.sh
echo 1..22
cd $T

# objsize NAME: the object size /proc/slabinfo gives a cache
objsize() {
	awk -v n="$1" '$1 == n { print $4 }' /proc/slabinfo
}
# workload: a ring-3 shell forking, exec'ing, opening and exiting
workload() {
	/bin/sh -c 'ls / > /dev/null; cat /proc/version > /dev/null; echo x | cat > /dev/null'
}
# only_from FUNCTION: events were kept, and all came from FUNCTION
only_from() {
	[ -s /tmp/frees ] && [ "$(grep -cv "call_site=$1+" /tmp/frees)" = 0 ]
}
# none_from FUNCTION: events were kept, none from FUNCTION
none_from() {
	[ -s /tmp/frees ] && ! grep -q "call_site=$1+" /tmp/frees
}
# sample: the workload with kmem_cache_free on, into an empty buffer
sample() {
	echo > trace
	echo 1 > events/kmem/kmem_cache_free/enable
	workload
	echo 0 > events/kmem/kmem_cache_free/enable
	grep ' kmem_cache_free: ' trace > /tmp/frees
}

for c in task_struct sighand_cache signal_cache mm_struct vm_area_struct files_cache fs_cache filp dentry inode_cache names_cache kmem_cache; do
	l="$l $(awk -v n=$c '$1 == n { print n }' /proc/slabinfo)"
done
is "slabinfo lists the kernel's caches" " task_struct sighand_cache signal_cache mm_struct vm_area_struct files_cache fs_cache filp dentry inode_cache names_cache kmem_cache" "$l"
is "the kmalloc classes come last, smallest at the end" kmalloc-8 "$(tail -n 1 /proc/slabinfo | awk '{ print $1 }')"
check "dentries and inodes in use: the root file system's" test "$(awk '$1 == "dentry" { print $2 }' /proc/slabinfo)" -gt 100

echo 'kmem:kmem_cache_alloc kmem:kmem_cache_free' > set_event
workload
echo > set_event
grep ' kmem_cache_alloc: ' trace > /tmp/allocs
grep ' kmem_cache_free: ' trace > /tmp/frees
ka='^ +[^ ].*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.ZzHhs][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: kmem_cache_alloc: call_site=[a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ ptr=0x[0-9a-f]+ bytes_req=[0-9]+ bytes_alloc=[0-9]+ gfp_flags=GFP_KERNEL(\|__GFP_ZERO)? node=-1 accounted=false$'
kf='^ +[^ ].*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.ZzHhs][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: kmem_cache_free: call_site=[a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ ptr=0x[0-9a-f]+ name=[a-z_]+$'
check "kmem_cache_alloc events from the workload" test -s /tmp/allocs
check "every kmem_cache_alloc line is Linux's layout" test "$(grep -cvE "$ka" /tmp/allocs)" = 0
check "every kmem_cache_free line is Linux's layout" test "$(grep -cvE "$kf" /tmp/frees)" = 0
for c in task_struct mm_struct vm_area_struct files_cache filp; do
	grep -q " name=$c\$" /tmp/frees || missing="$missing $c"
done
is "the fork, exec and exits freed tasks, mms, vmas, tables and files" "" "$missing"
check "a task_struct comes from task_alloc, its size slabinfo's" \
	grep -q "call_site=task_alloc+0x[0-9a-f]*/0x[0-9a-f]* ptr=0x[0-9a-f]* bytes_req=$(objsize task_struct) " /tmp/allocs
check "a zeroed filp of slabinfo's size" grep -q " bytes_req=$(objsize filp) bytes_alloc=[0-9]* gfp_flags=GFP_KERNEL|__GFP_ZERO " /tmp/allocs
is "the format file of kmem_cache_free (Linux 6.12's)" \
	'field:unsigned long call_site;	offset:8;	size:8;	signed:0;|field:const void * ptr;	offset:16;	size:8;	signed:0;|field:__data_loc char[] name;	offset:24;	size:4;	signed:0;|print fmt: "call_site=%pS ptr=%p name=%s", (void *)REC->call_site, REC->ptr, __get_str(name)' \
	"$(sed -n '/call_site/,$p' events/kmem/kmem_cache_free/format | sed 's/^	//' | grep . | tr '\n' '|' | sed 's/|$//')"
is "kmem_cache_alloc's fields (Linux 6.12's)" \
	'call_site:8:8 ptr:16:8 bytes_req:24:8 bytes_alloc:32:8 gfp_flags:40:8 node:48:4 accounted:52:1' \
	"$(grep -E 'offset:([89]|[1-9][0-9]);' events/kmem/kmem_cache_alloc/format | sed 's/.* \**\([a-z_]*\);	offset:\([0-9]*\);	size:\([0-9]*\);.*/\1:\2:\3/' | tr '\n' ' ' | sed 's/ $//')"

# The function freeing most, as ftracetest's event-filter-function case picks it.
sample
f=$(grep -o 'call_site=[^+]*' /tmp/frees | sed 's/call_site=//' | sort | uniq -c | sort -n | tail -n 1 | sed 's/^[ 0-9]*//')
addr=$(grep " $f\$" /proc/kallsyms | cut -d' ' -f1)
check "the busiest freeing function ($f) is one symbol in kallsyms" test "$(grep -c " $f\$" /proc/kallsyms)" = 1
echo "call_site.function == $f" > events/kmem/kmem_cache_free/filter
is "the filter reads back as written" "call_site.function == $f" "$(cat events/kmem/kmem_cache_free/filter)"
sample
check "by name: events, all from $f" only_from "$f"
echo "call_site.function == 0x$addr" > events/kmem/kmem_cache_free/filter
sample
check "by its address: the same" only_from "$f"
echo "call_site.function == $(printf '0x%x' $((0x$addr + 1)))" > events/kmem/kmem_cache_free/filter
sample
check "by an address inside it: the same" only_from "$f"
echo "call_site.function != $f" > events/kmem/kmem_cache_free/filter
sample
check "!=: events, none from $f" none_from "$f"
echo 0 > events/kmem/kmem_cache_free/filter

# Bad uses: refused, and the filter file shows the text, a caret and Linux's reason.
F=events/kmem/kmem_cache_free/filter
refused() {	# refused FILTER REASON
	echo > error_log
	if echo "$1" > $F 2>/dev/null; then
		not_ok "'$1' was accepted"
	else
		is "'$1': $2" "$2" "$(sed -n 's/^parse_error: //p' $F)"
	fi
	echo 0 > $F
}
refused 'call_site.function == nosuchsym_xyz' 'Function not found'
refused 'call_site.function > vfs_read' 'Invalid operator'
refused 'name.function == vfs_read' 'Illegal operation for field type'
refused 'call_site.function == 0xzz' 'Invalid value (did you forget quotes)?'
echo > error_log
echo 'call_site.function == 0x12' > $F 2>/dev/null
is "error_log names the reason, caret past the value" \
	"  Command: call_site.function == 0x12|$(printf '%38s^' '')" \
	"$(grep -A2 'error: Function not found' error_log | tail -n 2 | tr '\n' '|' | sed 's/|$//')"
echo 0 > $F
