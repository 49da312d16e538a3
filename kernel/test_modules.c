/*
 * The test modules of Linux that ftracetest loads, built into Spoor, which
 * links no code at run time: "loading" one runs its init (the module
 * system calls, kernel/module.c, and the console shell's modprobe and
 * rmmod, which kernel/shell/sh_os_kernel.c runs as it runs the workloads). Loading one runs
 * what its init does; it then counts as loaded until rmmod. Any other
 * name is not found, as on a Linux without that module. Names match with
 * '-' and '_' alike, as modprobe's.
 *
 *   preemptirq_delay_test [test_mode=irq|preempt|alternate] [delay=US]
 *	[burst_size=N]: Linux's lib/ test module for the irqsoff tracers:
 *	burst_size sections of delay us (default 100, one) with interrupts
 *	off, preemption off, or the two in turn.
 *
 * Kernel only.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/delay.h>
#include <kernel/spinlock.h>
#include <kernel/fs/fdtable.h>
#include <kernel/test_modules.h>

struct test_module {
	const char *name;
	int (*init)(int argc, char **argv);	/* argv: its PARAM=VALUE words */
	bool loaded;
};

static void say(const char *a, const char *b, const char *c)
{
	const char *parts[] = { a, b, c, "\n" };

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		ksys_write(2, parts[i], strlen(parts[i]));
}

/* The sections are not inlined: the tracers' "started at" names them. */
static noinline void delay_irqsoff(unsigned long long us)
{
	unsigned long flags;

	local_irq_save(flags);
	udelay(us);
	local_irq_restore(flags);
}

static noinline void delay_preemptoff(unsigned long long us)
{
	preempt_disable();
	udelay(us);
	preempt_enable();
}

static int preemptirq_delay_init(int argc, char **argv)
{
	unsigned long long delay = 100, burst = 1;
	const char *mode = "irq";

	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		int bad = !eq;

		if (!bad && !strncmp(argv[i], "test_mode=", 10))
			mode = eq + 1;
		else if (!bad && !strncmp(argv[i], "delay=", 6))
			bad = kstrtoull(eq + 1, 10, &delay) != 0;
		else if (!bad && !strncmp(argv[i], "burst_size=", 11))
			bad = kstrtoull(eq + 1, 10, &burst) != 0 || burst < 1 || burst > 10;
		else
			bad = 1;
		if (bad) {
			say("modprobe: bad parameter '", argv[i], "'");
			return -EINVAL;
		}
	}
	if (strcmp(mode, "irq") && strcmp(mode, "preempt") && strcmp(mode, "alternate")) {
		say("modprobe: bad test_mode '", mode, "'");
		return -EINVAL;
	}
	for (unsigned long long i = 0; i < burst; i++) {
		bool irq = !strcmp(mode, "irq") || (!strcmp(mode, "alternate") && !(i & 1));

		if (irq)
			delay_irqsoff(delay);
		else
			delay_preemptoff(delay);
	}
	return 0;
}

static struct test_module test_modules[] = {
	{ "preemptirq_delay_test", preemptirq_delay_init, false },
};

static bool module_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

static struct test_module *test_module_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(test_modules); i++)
		if (module_name_eq(test_modules[i].name, name))
			return &test_modules[i];
	return NULL;
}

int test_module_load(const char *name, int argc, char **argv)
{
	struct test_module *m = test_module_find(name);
	int err;

	if (!m)
		return -ENOENT;
	/* As Linux: a module already loaded is not loaded (or run) again. */
	if (__atomic_exchange_n(&m->loaded, true, __ATOMIC_ACQ_REL))
		return -EEXIST;
	err = m->init(argc, argv);
	if (err)
		WRITE_ONCE(m->loaded, false);
	return err;
}

int test_module_unload(const char *name)
{
	struct test_module *m = test_module_find(name);

	return m && __atomic_exchange_n(&m->loaded, false, __ATOMIC_ACQ_REL) ? 0 : -ENOENT;
}

const char *test_module_loaded(size_t i)
{
	if (i >= ARRAY_SIZE(test_modules))
		return NULL;
	return READ_ONCE(test_modules[i].loaded) ? test_modules[i].name : "";
}

int test_module_command(int argc, char **argv)
{
	bool load = !strcmp(argv[0], "modprobe");
	int err;

	if (argc < 2) {
		say("usage: ", load ? "modprobe MODULE [PARAM=VALUE]..." : "rmmod MODULE", "");
		return 1;
	}
	if (!load) {
		if (test_module_unload(argv[1])) {
			say("rmmod: can't unload module '", argv[1], "': No such file or directory");
			return 1;
		}
		return 0;
	}
	err = test_module_load(argv[1], argc - 2, argv + 2);
	if (err == -ENOENT)
		say("modprobe: module ", argv[1], " not found in modules.dep");
	return err && err != -EEXIST ? 1 : 0;
}
