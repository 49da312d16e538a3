/*
 * The module file of preemptirq_delay_test, built into Spoor
 * (kernel/test_modules.c): an ELF relocatable object, as Linux's .ko,
 * whose .modinfo names it. modprobe hands it to finit_module.
 */
__attribute__((section(".modinfo"), used, aligned(1)))
static const char modinfo[] = "license=GPL\0name=preemptirq_delay_test\0description=irqsoff and preemptoff sections for the latency tracers";
