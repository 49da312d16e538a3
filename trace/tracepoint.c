/*
 * Attaching a probe to a tracepoint: the single-probe interface of this
 * round (see trace/tracepoint.h). One probe per tracepoint; the next
 * round's copy-on-write probe arrays and static keys replace this file's
 * insides, not its interface.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <trace/tracepoint.h>

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	if (!tp || !probe)
		return -EINVAL;
	if (READ_ONCE(tp->probe))
		return READ_ONCE(tp->probe) == probe && READ_ONCE(tp->data) == data ?
			-EEXIST : -EBUSY;
	/* data before probe: a CPU that sees the probe must see its data. */
	WRITE_ONCE(tp->data, data);
	__atomic_store_n(&tp->probe, probe, __ATOMIC_RELEASE);
	return 0;
}

int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data)
{
	if (!tp || READ_ONCE(tp->probe) != probe || READ_ONCE(tp->data) != data)
		return -ENOENT;
	WRITE_ONCE(tp->probe, NULL);
	return 0;
}
