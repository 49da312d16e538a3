/*
 * Module files and Linux's module system calls (kernel/module.c). Spoor
 * links no code at run time: its modules are built in
 * (kernel/test_modules.c), and a module file, an ELF relocatable object as
 * Linux's .ko is, names one by the "name=" string of its .modinfo section.
 */
#ifndef KERNEL_MODULE_H
#define KERNEL_MODULE_H

#include <kernel/types.h>

/* Linux's MODULE_NAME_LEN: a name and its NUL, less a pointer's bytes. */
#define MODULE_NAME_LEN		(64 - sizeof(unsigned long))

/*
 * The module name an image's .modinfo gives, into name (MODULE_NAME_LEN
 * bytes): 0, or -ENOEXEC for anything that is not a well-formed x86_64
 * relocatable object with such a name, every offset checked against len.
 * Pure.
 */
int module_info_name(const void *image, size_t len, char *name);

#endif
