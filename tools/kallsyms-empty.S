/* The empty symbol table of the first kernel link (see configure). */
	.section .kallsyms, "a"
	.balign 8
	.globl kallsyms_num
kallsyms_num:
	.quad 0
	.globl kallsyms_addrs
kallsyms_addrs:
	.globl kallsyms_name_off
kallsyms_name_off:
	.globl kallsyms_names
kallsyms_names:
	.byte 0
