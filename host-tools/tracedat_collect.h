/*
 * spoor exec --dump DIR: the guest's dump port (QEMU's ivshmem shared
 * memory, trace/tracedat_dump.c) is a file in DIR while it runs;
 * afterwards every frame in it (trace/tracedat_frame.h) becomes
 * DIR/trace-N.dat (a trace.dat), DIR/perf-N.data (a perf.data sent with
 * trace-dump --file) or DIR/file-N (any other file). Damaged frames are
 * said on stderr and kept with ".bad" added, for a look.
 */
#ifndef HOST_TOOLS_TRACEDAT_COLLECT_H
#define HOST_TOOLS_TRACEDAT_COLLECT_H

/* The port's backing file inside DIR. */
#define TRACEDAT_PORT_FILE	"dump-port.raw"

/*
 * Split DIR/TRACEDAT_PORT_FILE into dumps. Returns the number of damaged
 * dumps (0: all good), or -1 when the capture cannot be read. A capture
 * without any dump is said on stderr.
 */
int tracedat_collect(const char *dir);

#endif
