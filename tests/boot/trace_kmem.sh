# The kmem events at their call sites (kmalloc, kfree, mm_page_alloc,
# mm_page_free), and a probe that allocates while kmalloc is traced: its
# nested kmalloc and kfree hits are dropped and counted by the recursion
# guard, never recorded, never recursed into
# (/sys/kernel/debug/trace_selftest, trace/trace_selftest.c).
T=/sys/kernel/tracing
S=/sys/kernel/debug/trace_selftest
. /spoor/lib/tap.sh
echo 1..12
cd $T
echo 4096 > buffer_size_kb
echo > trace
echo 'kmem:*' > set_event
check "set_event lists the six kmem events" test "$(sort set_event | tr '\n' ' ')" = "kmem:kfree kmem:kmalloc kmem:kmem_cache_alloc kmem:kmem_cache_free kmem:mm_page_alloc kmem:mm_page_free "
kmalloc-storm 2 200 20000
echo recursion 50 > $S
echo > set_event
check "the allocating probe's 100 nested hits were refused ($(cat $S))" grep -q '^recursion: allocations 50 refused 100$' $S
grep -v '^#' trace > /tmp/lines
check "50 kmalloc records from the selftest loop" test "$(grep -c ' kmalloc: call_site=selftest_recursion+0x[0-9a-f]*/0x[0-9a-f]* ' /tmp/lines)" = 50
check "50 kfree records from the selftest loop" test "$(grep -c ' kfree: call_site=selftest_recursion+' /tmp/lines)" = 50
check "nothing recorded from inside the probe" test "$(grep -c probe_kmalloc_allocating /tmp/lines)" = 0
km='^ +[^ ].*-[0-9]+ +\[[0-9]{3}\] [.dDbX][.Nnp][.ZzHhs][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: kmalloc: call_site=[a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ ptr=0x[0-9a-f]+ bytes_req=[0-9]+ bytes_alloc=[0-9]+ gfp_flags=(GFP_KERNEL|GFP_ATOMIC)(\|__GFP_ZERO)? node=-1 accounted=false$'
check "every kmalloc line is Linux's layout" test "$(grep ' kmalloc: ' /tmp/lines | grep -cvE "$km")" = 0
check "bytes_alloc >= bytes_req everywhere" test "$(grep ' kmalloc: ' /tmp/lines | sed 's/.*bytes_req=\([0-9]*\) bytes_alloc=\([0-9]*\).*/\1 \2/' | while read r a; do [ "$a" -ge "$r" ] || echo bad; done | grep -c bad)" = 0
check "the storm threads' allocations are there" grep -qE '^ +kmalloc/[01]-[0-9]+ .* kmalloc: call_site=' /tmp/lines
check "a 16 KiB request (past the largest class) took whole pages" grep -q ' bytes_req=16384 bytes_alloc=16384 ' /tmp/lines
pa='mm_page_alloc: page=0x[0-9a-f]+ pfn=0x[0-9a-f]+ order=[0-9]+ migratetype=0 gfp_flags=(GFP_KERNEL|GFP_ATOMIC)(\|__GFP_ZERO)?$'
check "mm_page_alloc lines" grep -qE "$pa" /tmp/lines
check "an order-2 block for them" grep -qE 'mm_page_alloc: .* order=2 ' /tmp/lines
check "mm_page_free lines" grep -qE 'mm_page_free: page=0x[0-9a-f]+ pfn=0x[0-9a-f]+ order=[0-9]+$' /tmp/lines
