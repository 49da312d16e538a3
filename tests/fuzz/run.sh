#!/bin/sh
# run.sh [SECONDS]: build the libFuzzer target for spoor report with clang
# and fuzz for SECONDS (default 600), growing tests/fuzz/corpus with what
# libFuzzer finds (kept small: -max_len). Not part of `ninja test`.
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-600}
out=${FUZZ_OUT:-build-fuzz}
mkdir -p "$out"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -std=gnu11 \
	-I. -Itests/host/include -DSPOOR_HOST -o "$out/report_fuzz" tests/fuzz/report_fuzz.c \
	host-tools/report.c host-tools/report_event.c host-tools/report_printfmt.c \
	host-tools/report_page.c host-tools/report_plugin.c host-tools/report_syms.c \
	host-tools/report_out.c host-tools/report_svg.c host-tools/tracedat_read.c -lz -lzstd
mkdir -p "$out/new"
"$out/report_fuzz" -max_total_time="$secs" -max_len=20000 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$out/" \
	-dict=tests/fuzz/report.dict "$out/new" tests/fuzz/corpus
# Keep a minimal corpus in the tree: merge what was found into it.
"$out/report_fuzz" -merge=1 -max_len=20000 tests/fuzz/corpus "$out/new" >/dev/null 2>&1 || true
