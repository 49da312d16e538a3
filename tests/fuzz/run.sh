#!/bin/sh
# run.sh [SECONDS]: build the libFuzzer target for spoor report with clang
# and fuzz for SECONDS (default 600), starting from tests/fuzz/corpus and
# adding the small inputs of what libFuzzer finds to it. Crashes land in
# $FUZZ_OUT (default build-fuzz). Not part of `ninja test`.
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-600}
out=${FUZZ_OUT:-build-fuzz}
mkdir -p "$out"
command -v clang >/dev/null || { echo "run.sh: needs clang with libFuzzer (Debian: apt-get install clang)" >&2; exit 1; }
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -std=gnu11 \
	-I. -Itests/host/include -DSPOOR_HOST -o "$out/report_fuzz" tests/fuzz/report_fuzz.c \
	host-tools/report.c host-tools/report_filter.c host-tools/report_wakeup.c host-tools/report_perf.c user/perf/perf_data.c host-tools/report_event.c host-tools/report_printfmt*.c \
	host-tools/report_page.c host-tools/report_plugin.c host-tools/report_syms.c \
	host-tools/report_out.c host-tools/report_svg.c host-tools/report_stat.c host-tools/tracedat_read.c -lz -lzstd
mkdir -p "$out/new"
"$out/report_fuzz" -max_total_time="$secs" -max_len=20000 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$out/" \
	-dict=tests/fuzz/report.dict "$out/new" tests/fuzz/corpus
# Keep a small corpus in the tree: a minimal set covering what was found,
# of which the inputs up to 4 KiB are added next to the seed files.
rm -rf "$out/min"
mkdir -p "$out/min"
"$out/report_fuzz" -merge=1 -max_len=20000 "$out/min" tests/fuzz/corpus "$out/new" >/dev/null 2>&1 || true
find "$out/min" -type f -size -4097c -exec cp {} tests/fuzz/corpus/ \;
