/*
 * Address -> kernel symbol (from the file's kallsyms text) and pid -> comm
 * (from its saved cmdlines), for %pS and the comm column.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host-tools/report.h"

/*
 * Lines "ffffffff81000000 T name\t[module]" of the kallsyms text become
 * (address, line offset) pairs, sorted by address; a name is read from
 * its line when a lookup finds it. Lines that do not parse are skipped:
 * kallsyms is a hint for printing, not a structure to trust. Absolute
 * symbols (type A: per-CPU offsets, build constants) are no code
 * addresses, and trace-cmd leaves them out too.
 */
static int by_addr(const void *a, const void *b)
{
	const struct rep_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;	/* equal: in file order */
}

/* Hex digit values, 16 for a byte that is none: a table lookup per digit of 150,000 addresses. */
static unsigned char hex_value[256];

static void hex_table(void)
{
	memset(hex_value, 16, sizeof(hex_value));
	for (int i = 0; i < 10; i++)
		hex_value['0' + i] = (unsigned char)i;
	for (int i = 0; i < 6; i++)
		hex_value['a' + i] = hex_value['A' + i] = (unsigned char)(10 + i);
}

/* The hex address a line starts with; *end after it (== p: none). strtoull was a fifth of a report. */
static uint64_t hex_addr(const char *p, const char *lim, const char **end)
{
	uint64_t v = 0;
	unsigned int d;

	for (; p < lim && (d = hex_value[(unsigned char)*p]) < 16; p++)
		v = v << 4 | d;
	*end = p;
	return v;
}

static void parse_kallsyms(struct rep_syms *s)
{
	const char *text = s->kallsyms, *p = text, *end = text + s->kallsyms_len, *nl;
	size_t lines = 1;
	bool sorted = true;	/* /proc/kallsyms mostly is: no sort needed then */

	for (nl = p; (nl = memchr(nl, '\n', (size_t)(end - nl))); nl++)
		lines++;
	s->syms = malloc(lines * sizeof(*s->syms));
	if (!s->syms)
		return;
	hex_table();
	for (; p < end; p = nl + 1) {
		const char *type;
		uint64_t addr;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		addr = hex_addr(p, nl, &type);
		if (type == p || nl - type < 4 || type[0] != ' ' || type[2] != ' ' || (type[1] | 32) == 'a')
			continue;
		if (s->nr && addr < s->syms[s->nr - 1].addr)
			sorted = false;
		s->syms[s->nr++] = (struct rep_ksym){ addr, (uint32_t)(p - text) };
	}
	if (!sorted)
		qsort(s->syms, s->nr, sizeof(*s->syms), by_addr);
}

void syms_load_kallsyms(struct rep_syms *s, const char *text, size_t len)
{
	/* Line offsets are 32-bit: a kallsyms of 4 GB is not one. */
	s->kallsyms = len && len < UINT32_MAX ? text : NULL;
	s->kallsyms_len = len;
}

void syms_load_file_kallsyms(struct rep_syms *s, struct tdat *t)
{
	s->file = t;
}

bool syms_find(struct rep_syms *s, uint64_t addr, struct rep_sym *sym)
{
	size_t lo = 0, hi;
	const char *name, *end;

	if (s->file) {
		const struct tdat_blob *b = tdat_kallsyms(s->file);

		s->file = NULL;
		syms_load_kallsyms(s, b->data, b->len);
	}
	if (s->kallsyms && !s->syms)
		parse_kallsyms(s);
	hi = s->nr;
	if (!s->nr || addr < s->syms[0].addr)
		return false;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* The last symbol has no end: like trace-cmd, take it only for its own address. */
	if (lo == s->nr - 1 && addr != s->syms[lo].addr)
		return false;
	/* "addr T name", then a tab and the module, or the end of the line. */
	name = s->kallsyms + s->syms[lo].line;
	end = s->kallsyms + s->kallsyms_len;
	while (*name != ' ')
		name++;
	name += 3;
	sym->addr = s->syms[lo].addr;
	sym->name = name;
	while (name < end && *name != '\n' && *name != '\t' && *name != ' ')
		name++;
	sym->name_len = (size_t)(name - sym->name);
	return true;
}

static size_t comm_slot(const struct rep_syms *s, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (s->comm_cap - 1);

	while (s->comms[i].used && s->comms[i].pid != pid)
		i = (i + 1) & (s->comm_cap - 1);
	return i;
}

static void comm_set(struct rep_syms *s, int32_t pid, const char *comm, size_t n)
{
	size_t i;

	if (!s->comm_cap) {
		s->comm_cap = 1024;
		s->comms = calloc(s->comm_cap, sizeof(*s->comms));
		if (!s->comms) {
			s->comm_cap = 0;
			return;
		}
	}
	i = comm_slot(s, pid);
	if (!s->comms[i].used) {
		if (2 * (s->nr_comms + 1) > s->comm_cap) {
			struct rep_comm *old = s->comms;
			size_t ocap = s->comm_cap;

			s->comms = calloc(2 * ocap, sizeof(*s->comms));
			if (!s->comms) {
				s->comms = old;
				return;
			}
			s->comm_cap = 2 * ocap;
			for (size_t j = 0; j < ocap; j++)
				if (old[j].used)
					s->comms[comm_slot(s, old[j].pid)] = old[j];
			free(old);
			i = comm_slot(s, pid);
		}
		s->nr_comms++;
	}
	if (n >= sizeof(s->comms[i].comm))
		n = sizeof(s->comms[i].comm) - 1;
	s->comms[i].used = true;
	s->comms[i].pid = pid;
	memcpy(s->comms[i].comm, comm, n);
	s->comms[i].comm[n] = 0;
}

/* "<pid> <comm>\n" lines; the comm may contain spaces. */
void syms_load_cmdlines(struct rep_syms *s, const char *text, size_t len)
{
	const char *p = text, *end;

	if (!text)
		return;
	for (end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q = p;
		long pid = 0;
		bool neg = false;

		if (!nl)
			nl = end;
		if (q < nl && *q == '-') {
			neg = true;
			q++;
		}
		while (q < nl && *q >= '0' && *q <= '9' && pid < (1l << 31))
			pid = pid * 10 + (*q++ - '0');
		if (q > p && q < nl && *q == ' ')
			comm_set(s, (int32_t)(neg ? -pid : pid), q + 1, (size_t)(nl - q - 1));
		p = nl + 1;
	}
}

void syms_register_comm(struct rep_syms *s, int32_t pid, const char *comm, size_t n)
{
	if (!syms_comm(s, pid))
		comm_set(s, pid, comm, n);
}

const char *syms_comm(const struct rep_syms *s, int32_t pid)
{
	size_t i;

	if (!s->comm_cap)
		return NULL;
	i = comm_slot(s, pid);
	return s->comms[i].used ? s->comms[i].comm : NULL;
}

void syms_free(struct rep_syms *s)
{
	free(s->syms);
	free(s->comms);
	memset(s, 0, sizeof(*s));
}
