/*
 * Faults that involve ring 3: page faults on user addresses (demand
 * paging, copy-on-write, bad accesses), and every exception a process
 * raises. A process that cannot go on gets Linux's signal and Linux's
 * one-line report; the kernel and every other process carry on. A kernel
 * access to user memory that cannot be served resumes at its
 * exception-table fixup (-EFAULT for the system call).
 */
#include <kernel/types.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/mman.h>
#include <kernel/syscalls.h>
#include <asm/ptrace.h>
#include <asm/extable.h>
#include <asm/irqflags.h>
#include <asm/uaccess.h>
#include <asm/page.h>
#include <kernel/string.h>
#include <kernel/percpu.h>
#include <kernel/ftrace.h>
#include <trace/events/exceptions.h>

extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

#define PF_PROT		BIT(0)
#define PF_WRITE	BIT(1)
#define PF_USER		BIT(2)
#define PF_INSTR	BIT(4)

unsigned long search_exception_tables(unsigned long rip)
{
	for (const struct exception_table_entry *e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == rip)
			return e->fixup;
	return 0;
}

static unsigned long read_cr2(void)
{
	unsigned long v;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

/* " in hello[1067,401000+5000]": the file offset of ip, and the vma holding it. */
static void print_vma_of(unsigned long ip)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma = mm ? find_vma(mm, ip) : NULL;

	if (vma && vma->start <= ip && vma->file)
		printk(KERN_CONT " in %s[%lx,%lx+%lx]", current->comm,
		       ip - vma->start + (vma->pgoff << PAGE_SHIFT), vma->start, vma->end - vma->start);
}

/* Linux's "Code:" line: 42 bytes before ip, the one at ip in <>, 21 after. */
static void print_code(unsigned long ip)
{
	u8 code[64];
	char line[64 * 3 + 16];
	int n = 0;

	if (ip < 42 || copy_from_user(code, (void *)(ip - 42), sizeof(code)))
		return;
	for (int i = 0; i < 64; i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, i == 42 ? "<%02x> " : "%02x ", code[i]);
	line[n - 1] = '\0';
	printk(KERN_INFO "Code: %s\n", line);
}

static void report_user_fault(const char *what, const struct pt_regs *regs, unsigned long addr)
{
	int cpu = smp_processor_id();

	if (!what) {
		printk(KERN_INFO "%s[%d]: segfault at %lx ip %016lx sp %016lx error %lx",
		       current->comm, current->pid, addr, regs->rip, regs->rsp, regs->error_code);
		print_vma_of(regs->rip);
		printk(KERN_CONT " likely on CPU %d (core %d, socket 0)\n", cpu, cpu);
		print_code(regs->rip);
		return;
	}
	printk(KERN_INFO "traps: %s[%d] %s%s ip:%lx sp:%lx error:%lx", current->comm, current->pid,
	       regs->vector == 13 ? "" : "trap ", what, regs->rip, regs->rsp, regs->error_code);
	print_vma_of(regs->rip);
	printk(KERN_CONT "\n");
}

DEFINE_PER_CPU(unsigned int, uaccess_nofault);

/* notrace: kprobe handlers read with these */
notrace long copy_from_kernel_nofault(void *dst, const void *src, size_t n)
{
	unsigned long left;

	this_cpu_inc(uaccess_nofault);
	left = __copy_user(dst, src, n);
	this_cpu_dec(uaccess_nofault);
	return left ? -EFAULT : 0;
}

notrace long strncpy_from_nofault(char *dst, const void *src, long n)
{
	long ret;

	this_cpu_inc(uaccess_nofault);
	ret = __strncpy_from_user(dst, src, n);
	this_cpu_dec(uaccess_nofault);
	return ret;
}

notrace long copy_from_user_nofault(void *dst, const void *src, size_t n)
{
	if (!access_ok((unsigned long)src, n))
		return -EFAULT;
	return copy_from_kernel_nofault(dst, src, n);
}

notrace long strncpy_from_user_nofault(char *dst, const void *src, long n)
{
	n = user_string_span(src, n);
	return n < 0 ? n : strncpy_from_nofault(dst, src, n);
}

/* Returns true when the fault was handled (resolved, fixed up, or a signal queued). */
bool do_page_fault(struct pt_regs *regs)
{
	unsigned long addr = read_cr2(), ec = regs->error_code, fixup;
	struct mm_struct *mm = current->mm;
	unsigned int flags = 0;
	int err = -EFAULT;

	if (user_mode(regs))
		trace_page_fault_user(addr, regs, ec);
	else
		trace_page_fault_kernel(addr, regs, ec);
	/* a nofault read (kprobes' fetches): no paging in, the copy's fixup answers */
	if (!user_mode(regs) && this_cpu_read(uaccess_nofault))
		goto no_context;
	/* Only user addresses are served; a kernel-half fault is a kernel bug (or a bad jump). */
	if (addr >= TASK_SIZE) {
		if (!user_mode(regs))
			return false;
		goto bad;
	}
	if (!mm || in_interrupt())
		goto no_context;
	/* Serving a fault may take locks and allocate: with interrupts as they were. */
	if (regs->rflags & 0x200)
		local_irq_enable();
	if (ec & PF_WRITE)
		flags |= FAULT_FLAG_WRITE;
	if (ec & PF_INSTR)
		flags |= FAULT_FLAG_EXEC;
	if (ec & PF_USER)
		flags |= FAULT_FLAG_USER;
	err = handle_mm_fault(mm, addr, flags);
	/* No memory is no fault of the process: as Linux, kill the biggest and run it again. */
	if (err == -ENOMEM && user_mode(regs) && pagefault_out_of_memory())
		err = -EAGAIN;
	local_irq_disable();
	if (!err) {
		current->min_flt++;
		return true;
	}
	if (err == -EAGAIN)
		return true;
no_context:
	if (!user_mode(regs)) {
		fixup = search_exception_tables(regs->rip);
		if (!fixup)
			return false;
		regs->rip = fixup;
		return true;
	}
bad:
	report_user_fault(NULL, regs, addr);
	force_sig_fault(err == -ENOMEM ? SIGBUS : SIGSEGV,
			(ec & PF_PROT) ? SEGV_ACCERR : SEGV_MAPERR, addr);
	return true;
}

/* An exception raised in ring 3 (other than #PF): the process gets Linux's signal. */
void do_user_trap(struct pt_regs *regs)
{
	int sig = SIGSEGV, code = SI_KERNEL;
	const char *what = "general protection fault";

	switch (regs->vector) {
	case 0:  sig = SIGFPE;  code = FPE_INTDIV;  what = "divide error"; break;
	case 1:  sig = SIGTRAP; code = TRAP_BRKPT;  what = "debug"; break;
	case 3:  sig = SIGTRAP; code = TRAP_BRKPT;  what = "int3"; break;
	case 4:  what = "overflow"; break;
	case 5:  what = "bounds"; break;
	case 6:  sig = SIGILL;  code = ILL_ILLOPN;  what = "invalid opcode"; break;
	case 7:  what = "device not available"; break;
	case 12: sig = SIGBUS;  what = "stack segment"; break;
	case 16: sig = SIGFPE;  what = "coprocessor error"; break;
	case 17: sig = SIGBUS;  code = BUS_ADRERR;  what = "alignment check"; break;
	case 19: sig = SIGFPE;  what = "simd exception"; break;
	default: break;
	}
	if (sig != SIGTRAP)
		report_user_fault(what, regs, 0);
	force_sig_fault(sig, code, sig == SIGSEGV ? 0 : regs->rip);
}
