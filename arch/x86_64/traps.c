/*
 * CPU exceptions. A fault in kernel code prints an oops report in Linux's
 * shape (what happened, the registers, the call trace) and panics; it never
 * triple-faults. Ring-3 faults, and kernel faults on user addresses that
 * an exception-table fixup covers, go to arch/x86_64/fault.c.
 */
/* ftrace: notrace */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/percpu.h>
#include <kernel/stacktrace.h>
#include <asm/idt.h>
#include <asm/ptrace.h>
#include <asm/extable.h>
#include <kernel/syscalls.h>
#include <kernel/kprobes.h>
#include <kernel/uprobes.h>

bool do_page_fault(struct pt_regs *regs);
void do_user_trap(struct pt_regs *regs);

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "int3", "overflow", "bounds",
	"invalid opcode", "device not available", "double fault",
	"coprocessor segment overrun", "invalid TSS", "segment not present",
	"stack segment", "general protection fault", "page fault", "reserved 15",
	"x87 floating point", "alignment check", "machine check",
	"SIMD floating point", "virtualization", "control protection",
	"reserved 22", "reserved 23", "reserved 24", "reserved 25",
	"reserved 26", "reserved 27", "hypervisor injection", "VMM communication",
	"security", "reserved 31",
};

static bool (*int3_handler)(struct pt_regs *regs);

void traps_set_int3_handler(bool (*fn)(struct pt_regs *regs))
{
	int3_handler = fn;
}

static unsigned long read_cr2(void)
{
	unsigned long v;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

static void report_page_fault(const struct pt_regs *regs)
{
	unsigned long addr = read_cr2();
	unsigned long ec = regs->error_code;

	if (addr < 4096)
		printk(KERN_EMERG "BUG: kernel NULL pointer dereference, address: %016lx\n", addr);
	else
		printk(KERN_EMERG "BUG: unable to handle page fault for address: %016lx\n", addr);
	printk(KERN_EMERG "#PF: %s %s access in %s mode\n",
	       ec & 4 ? "user" : "supervisor",
	       ec & 16 ? "instruction fetch" : ec & 2 ? "write" : "read",
	       ec & 4 ? "user" : "kernel");
	printk(KERN_EMERG "#PF: error_code(0x%04lx) - %s\n", ec,
	       ec & 8 ? "reserved bit violation" :
	       ec & 1 ? "permissions violation" : "not-present page");
}

void show_regs(const struct pt_regs *regs)
{
	unsigned long entries[32];
	unsigned int n;

	printk(KERN_EMERG "CPU: %d\n", smp_processor_id());
	printk(KERN_EMERG "RIP: %04lx:%pS\n", regs->cs, (void *)regs->rip);
	printk(KERN_EMERG "RSP: %04lx:%016lx EFLAGS: %08lx\n", regs->ss, regs->rsp, regs->rflags);
	printk(KERN_EMERG "RAX: %016lx RBX: %016lx RCX: %016lx\n", regs->rax, regs->rbx, regs->rcx);
	printk(KERN_EMERG "RDX: %016lx RSI: %016lx RDI: %016lx\n", regs->rdx, regs->rsi, regs->rdi);
	printk(KERN_EMERG "RBP: %016lx R08: %016lx R09: %016lx\n", regs->rbp, regs->r8, regs->r9);
	printk(KERN_EMERG "R10: %016lx R11: %016lx R12: %016lx\n", regs->r10, regs->r11, regs->r12);
	printk(KERN_EMERG "R13: %016lx R14: %016lx R15: %016lx\n", regs->r13, regs->r14, regs->r15);
	printk(KERN_EMERG "Call Trace:\n");
	if (kernel_text_address(regs->rip))
		printk(KERN_EMERG " %pS\n", (void *)regs->rip);
	n = stack_trace_save_from(regs->rbp, entries, ARRAY_SIZE(entries));
	stack_trace_print(entries, n);
}

void do_trap(struct pt_regs *regs)
{
	unsigned long v = regs->vector;

	/* a ring-3 int3 is a uprobe's or the program's own: kernel text's handlers never claim it */
	if (v == 3 && user_mode(regs) && uprobe_int3_handler(regs)) {
		syscall_exit_to_user_mode(regs);
		return;
	}
	if (v == 3 && !user_mode(regs) &&
	    (kprobe_int3_handler(regs) || (int3_handler && int3_handler(regs))))
		return;
	if (v == 14 && do_page_fault(regs)) {
		if (user_mode(regs))
			syscall_exit_to_user_mode(regs);
		return;
	}
	if (user_mode(regs) && v != 2 && v != 8 && v != 18) {
		do_user_trap(regs);
		syscall_exit_to_user_mode(regs);
		return;
	}
	/* A #GP in a user-memory copy: a non-canonical user pointer. */
	if (v == 13) {
		unsigned long fixup = search_exception_tables(regs->rip);

		if (fixup) {
			regs->rip = fixup;
			return;
		}
	}
	if (v == 14)
		report_page_fault(regs);
	else
		printk(KERN_EMERG "Oops: %s (vector %lu), error_code 0x%lx\n",
		       exception_names[v], v, regs->error_code);
	show_regs(regs);
	panic("Fatal exception");
}
