/*
 * The perf_event ABI as Linux 6.12 defines it (include/uapi/linux/
 * perf_event.h is the contract): the attribute block user space passes to
 * perf_event_open(2), the mmap control page, the record headers, record
 * types, flag bits and ioctl numbers. Written from the documented layout;
 * shared by the kernel side (trace/perf_*.c), user/perf and the host's
 * perf.data reader, so it depends on <stdint.h> only.
 */
#ifndef TRACE_PERF_EVENT_ABI_H
#define TRACE_PERF_EVENT_ABI_H

#include <stdint.h>

/* attr.type */
#define PERF_TYPE_HARDWARE		0
#define PERF_TYPE_SOFTWARE		1
#define PERF_TYPE_TRACEPOINT		2

/* attr.config for PERF_TYPE_SOFTWARE (the ones Spoor counts, and the dummy) */
#define PERF_COUNT_SW_CPU_CLOCK		0
#define PERF_COUNT_SW_TASK_CLOCK	1
#define PERF_COUNT_SW_PAGE_FAULTS	2
#define PERF_COUNT_SW_CONTEXT_SWITCHES	3
#define PERF_COUNT_SW_CPU_MIGRATIONS	4
#define PERF_COUNT_SW_DUMMY		9

/* attr.sample_type: what a PERF_RECORD_SAMPLE carries, in this bit order */
#define PERF_SAMPLE_IP			(1U << 0)
#define PERF_SAMPLE_TID			(1U << 1)
#define PERF_SAMPLE_TIME		(1U << 2)
#define PERF_SAMPLE_ADDR		(1U << 3)
#define PERF_SAMPLE_READ		(1U << 4)
#define PERF_SAMPLE_CALLCHAIN		(1U << 5)
#define PERF_SAMPLE_ID			(1U << 6)
#define PERF_SAMPLE_CPU			(1U << 7)
#define PERF_SAMPLE_PERIOD		(1U << 8)
#define PERF_SAMPLE_STREAM_ID		(1U << 9)
#define PERF_SAMPLE_RAW			(1U << 10)
#define PERF_SAMPLE_BRANCH_STACK	(1U << 11)
#define PERF_SAMPLE_IDENTIFIER		(1U << 16)
/* The bits Spoor can fill; others are EINVAL (Linux refuses what a PMU cannot give too). */
#define PERF_SAMPLE_SUPPORTED	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
				 PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | \
				 PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
				 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW | PERF_SAMPLE_IDENTIFIER)

/* attr.read_format: what read(2) and PERF_SAMPLE_READ return */
#define PERF_FORMAT_TOTAL_TIME_ENABLED	(1U << 0)
#define PERF_FORMAT_TOTAL_TIME_RUNNING	(1U << 1)
#define PERF_FORMAT_ID			(1U << 2)
#define PERF_FORMAT_GROUP		(1U << 3)
#define PERF_FORMAT_LOST		(1U << 4)
#define PERF_FORMAT_MAX			(1U << 5)

/* attr.size values of the published versions */
#define PERF_ATTR_SIZE_VER0		64
#define PERF_ATTR_SIZE_VER7		128
#define PERF_ATTR_SIZE_VER8		136

/*
 * The attribute block, VER8 layout (136 bytes). The single-bit flags
 * sit in one u64 at offset 40; the accessors below name the bits, so
 * the layout never depends on the compiler's bit-field order.
 */
struct perf_event_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	union {
		uint64_t sample_period;
		uint64_t sample_freq;
	};
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;			/* PERF_ATTR_FLAG_* */
	union {
		uint32_t wakeup_events;	/* every N samples */
		uint32_t wakeup_watermark;	/* bytes; with PERF_ATTR_FLAG_WATERMARK */
	};
	uint32_t bp_type;
	uint64_t config1;
	uint64_t config2;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved_2;
	uint32_t aux_sample_size;
	uint32_t reserved_3;
	uint64_t sig_data;
	uint64_t config3;
};

/* Bits of perf_event_attr.flags */
#define PERF_ATTR_FLAG_DISABLED		(1ULL << 0)
#define PERF_ATTR_FLAG_INHERIT		(1ULL << 1)
#define PERF_ATTR_FLAG_PINNED		(1ULL << 2)
#define PERF_ATTR_FLAG_EXCLUSIVE	(1ULL << 3)
#define PERF_ATTR_FLAG_EXCLUDE_USER	(1ULL << 4)
#define PERF_ATTR_FLAG_EXCLUDE_KERNEL	(1ULL << 5)
#define PERF_ATTR_FLAG_EXCLUDE_HV	(1ULL << 6)
#define PERF_ATTR_FLAG_EXCLUDE_IDLE	(1ULL << 7)
#define PERF_ATTR_FLAG_MMAP		(1ULL << 8)
#define PERF_ATTR_FLAG_COMM		(1ULL << 9)
#define PERF_ATTR_FLAG_FREQ		(1ULL << 10)
#define PERF_ATTR_FLAG_INHERIT_STAT	(1ULL << 11)
#define PERF_ATTR_FLAG_ENABLE_ON_EXEC	(1ULL << 12)
#define PERF_ATTR_FLAG_TASK		(1ULL << 13)
#define PERF_ATTR_FLAG_WATERMARK	(1ULL << 14)
#define PERF_ATTR_FLAG_PRECISE_IP	(3ULL << 15)
#define PERF_ATTR_FLAG_MMAP_DATA	(1ULL << 17)
#define PERF_ATTR_FLAG_SAMPLE_ID_ALL	(1ULL << 18)
#define PERF_ATTR_FLAG_EXCLUDE_HOST	(1ULL << 19)
#define PERF_ATTR_FLAG_EXCLUDE_GUEST	(1ULL << 20)
#define PERF_ATTR_FLAG_EXCL_CALLCHAIN_K	(1ULL << 21)
#define PERF_ATTR_FLAG_EXCL_CALLCHAIN_U	(1ULL << 22)
#define PERF_ATTR_FLAG_MMAP2		(1ULL << 23)
#define PERF_ATTR_FLAG_COMM_EXEC	(1ULL << 24)
#define PERF_ATTR_FLAG_USE_CLOCKID	(1ULL << 25)
#define PERF_ATTR_FLAG_CONTEXT_SWITCH	(1ULL << 26)
#define PERF_ATTR_FLAG_WRITE_BACKWARD	(1ULL << 27)
/* Bits 28.. are features Spoor does not have: asking for one is EINVAL. */
#define PERF_ATTR_FLAG_KNOWN		((1ULL << 28) - 1)

/*
 * The first page of the mmap: the kernel's view of the ring (data_head),
 * the reader's (data_tail), and the clock conversion fields. 1024 bytes
 * before data_head so it sits in its own cache lines.
 */
struct perf_event_mmap_page {
	uint32_t version;
	uint32_t compat_version;
	uint32_t lock;
	uint32_t index;
	int64_t offset;
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t capabilities;		/* PERF_CAP_* */
	uint16_t pmc_width;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_offset;
	uint64_t time_zero;
	uint32_t size;
	uint32_t reserved_1;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t reserved[116 * 8];
	uint64_t data_head;		/* written by the kernel after the data (release) */
	uint64_t data_tail;		/* written by the reader after it consumed (release) */
	uint64_t data_offset;
	uint64_t data_size;
	uint64_t aux_head;
	uint64_t aux_tail;
	uint64_t aux_offset;
	uint64_t aux_size;
};

/* perf_event_mmap_page.capabilities */
#define PERF_CAP_BIT0_IS_DEPRECATED	(1ULL << 1)
#define PERF_CAP_USER_RDPMC		(1ULL << 2)
#define PERF_CAP_USER_TIME		(1ULL << 3)
#define PERF_CAP_USER_TIME_ZERO		(1ULL << 4)
#define PERF_CAP_USER_TIME_SHORT	(1ULL << 5)

/* Every record in the ring starts with this; size covers the whole record. */
struct perf_event_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
};

#define PERF_RECORD_MISC_CPUMODE_MASK	7
#define PERF_RECORD_MISC_KERNEL		1
#define PERF_RECORD_MISC_USER		2
#define PERF_RECORD_MISC_COMM_EXEC	(1 << 13)

/* perf_event_header.type */
#define PERF_RECORD_MMAP		1
#define PERF_RECORD_LOST		2
#define PERF_RECORD_COMM		3
#define PERF_RECORD_EXIT		4
#define PERF_RECORD_THROTTLE		5
#define PERF_RECORD_UNTHROTTLE		6
#define PERF_RECORD_FORK		7
#define PERF_RECORD_READ		8
#define PERF_RECORD_SAMPLE		9
#define PERF_RECORD_LOST_SAMPLES	13
/* perf.data only (written by the tool, never by the kernel) */
#define PERF_RECORD_FINISHED_ROUND	68

/* Callchain context markers (entries >= PERF_CONTEXT_MAX are markers). */
#define PERF_CONTEXT_KERNEL		((uint64_t)-128)
#define PERF_CONTEXT_USER		((uint64_t)-512)
#define PERF_CONTEXT_MAX		((uint64_t)-4095)
#define PERF_MAX_STACK_DEPTH		127

/* perf_event_open flags */
#define PERF_FLAG_FD_NO_GROUP		(1UL << 0)
#define PERF_FLAG_FD_OUTPUT		(1UL << 1)
#define PERF_FLAG_PID_CGROUP		(1UL << 2)
#define PERF_FLAG_FD_CLOEXEC		(1UL << 3)

/* ioctls ('$' = 0x24; direction and size encoded as _IO/_IOR/_IOW do) */
#define PERF_EVENT_IOC_ENABLE		0x00002400u
#define PERF_EVENT_IOC_DISABLE		0x00002401u
#define PERF_EVENT_IOC_REFRESH		0x00002402u
#define PERF_EVENT_IOC_RESET		0x00002403u
#define PERF_EVENT_IOC_PERIOD		0x40082404u
#define PERF_EVENT_IOC_SET_OUTPUT	0x00002405u
#define PERF_EVENT_IOC_SET_FILTER	0x40082406u
#define PERF_EVENT_IOC_ID		0x80082407u
#define PERF_EVENT_IOC_SET_BPF		0x40042408u
#define PERF_EVENT_IOC_PAUSE_OUTPUT	0x40042409u
#define PERF_IOC_FLAG_GROUP		1u

#endif
