/*
 * Probe events' fetch arguments: parsing, fields, print fmt and `trace`
 * text, with Linux 6.12's messages and carets (see trace_probe.h). Pure.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include <kernel/kallsyms.h>
#include <kernel/fs/fs.h>
#include <trace/trace_output.h>
#include <trace/trace_probe.h>

/* pt_regs word names (Linux's regs_query_register_offset), in struct pt_regs order. */
static const char *const probe_regs[] = {
	"r15", "r14", "r13", "r12", "bp", "bx", "r11", "r10", "r9", "r8", "ax", "cx", "dx",
	"si", "di", "orig_ax", NULL, "ip", "cs", "flags", "sp", "ss",
};
/* $argN, N = 1..6: the System V registers (indexes into probe_regs). */
static const unsigned char probe_arg_regs[] = { 14, 13, 12, 11, 9, 8 };

static int fail(struct probe_error *err, const char *msg, int pos, int ret)
{
	err->msg = msg;
	err->pos = pos;
	return ret;
}

bool probe_is_ident(const char *s, size_t len)
{
	if (!len || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

static int parse_number(const char *s, size_t len, unsigned long *out)
{
	char buf[24];
	unsigned long long v;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (kstrtoull(buf, 0, &v))
		return -EINVAL;
	*out = (unsigned long)v;
	return 0;
}

/* An eprobe's `$FIELD`: one of the event's own fields (not a common one). */
static int parse_field(struct probe_arg *a, const char *s, size_t len, int pos,
		       const struct trace_event_call *call, struct probe_error *err)
{
	for (const struct trace_event_field *f = call->fields; f && f->name; f++) {
		if (strlen(f->name) != len - 1 || memcmp(f->name, s + 1, len - 1))
			continue;
		a->base = PROBE_BASE_FIELD;
		a->base_val = f->offset;
		a->field_size = (u8)(f->size > 8 ? 8 : f->size);
		a->field_signed = f->is_signed;
		a->field_type = f->filter_type;
		return 0;
	}
	return fail(err, "Invalid $-variable specified", pos, -EINVAL);
}

/* `$...` variables. */
static int parse_var(struct probe_arg *a, const char *s, size_t len, int pos,
		     const struct probe_ctx *ctx, struct probe_error *err)
{
	unsigned long n;

	if (len == 5 && !memcmp(s, "$comm", 5)) {
		a->base = PROBE_BASE_COMM;
		return 0;
	}
	if (ctx->flags & PROBE_CTX_EVENT)
		return parse_field(a, s, len, pos, ctx->event, err);
	if (len == 7 && !memcmp(s, "$retval", 7)) {
		if (!(ctx->flags & PROBE_CTX_RETURN))
			return fail(err, "$retval is not available on probe", pos, -EINVAL);
		a->base = PROBE_BASE_RETVAL;
		return 0;
	}
	if (len == 6 && !memcmp(s, "$stack", 6)) {
		a->base = PROBE_BASE_STACKP;
		return 0;
	}
	if (len > 6 && !memcmp(s, "$stack", 6)) {
		if (parse_number(s + 6, len - 6, &n) || n > PROBE_STACK_MAX)
			return fail(err, "Invalid stack number", pos, -EINVAL);
		a->base = PROBE_BASE_STACK;
		a->base_val = n;
		return 0;
	}
	if (len == 5 && !memcmp(s, "$arg*", 5))
		return fail(err, "BTF is not available or not supported", pos, -EOPNOTSUPP);
	if (len > 4 && !memcmp(s, "$arg", 4)) {
		if (parse_number(s + 4, len - 4, &n) || n == 0 || n > PROBE_STACK_MAX)
			return fail(err, "Invalid argument number", pos, -EINVAL);
		/* a uprobe's place need not be a function's entry (Linux 6.12's rule) */
		if (ctx->flags & PROBE_CTX_USER)
			return fail(err, "$arg* can be used only on function entry or exit", pos,
				    -EINVAL);
		/* At a return the registers are the callee's: the ones saved at the call. */
		if (ctx->flags & PROBE_CTX_RETURN) {
			if (n > PROBE_ENTRY_ARGS)
				return fail(err, "Invalid argument number", pos, -EINVAL);
			a->base = PROBE_BASE_ENTRY_ARG;
			a->base_val = n - 1;
		} else if (n <= ARRAY_SIZE(probe_arg_regs)) {
			a->base = PROBE_BASE_REG;
			a->base_val = probe_arg_regs[n - 1];
		} else {
			/* above the return address: the 7th is $stack1 */
			a->base = PROBE_BASE_STACK;
			a->base_val = n - ARRAY_SIZE(probe_arg_regs);
		}
		return 0;
	}
	return fail(err, "Invalid $-variable specified", pos, -EINVAL);
}

/* The fetch expression s[0..len), at column pos. */
static int parse_fetch(struct probe_arg *a, const char *s, size_t len, int pos,
		       const struct probe_ctx *ctx, struct probe_error *err)
{
	unsigned long v;

	if (!len)
		return fail(err, "No argument expression", pos, -EINVAL);
	if (s[0] == '\\' && len > 1 && s[1] == '"') {
		if (len < 3 || s[len - 1] != '"')
			return fail(err, "String is not closed with '\"'", pos + (int)len, -EINVAL);
		a->imm_str = kmalloc(len - 2, GFP_KERNEL);
		if (!a->imm_str)
			return -ENOMEM;
		memcpy(a->imm_str, s + 2, len - 3);
		a->imm_str[len - 3] = '\0';
		a->base = PROBE_BASE_IMMSTR;
		return 0;
	}
	if (s[0] == '\\') {
		/* \IMM: the number itself */
		if (parse_number(s + 1, len - 1, &v))
			return fail(err, "Invalid immediate value", pos + 1, -EINVAL);
		a->base = PROBE_BASE_IMM;
		a->base_val = v;
		return 0;
	}
	if (s[0] == '%' && (ctx->flags & PROBE_CTX_NOREGS)) {
		err->first = "Invalid $-variable specified";
		err->first_pos = pos;
		return fail(err, "Invalid fetch argument", pos, -EINVAL);
	}
	if (s[0] == '%') {
		for (unsigned int i = 0; i < ARRAY_SIZE(probe_regs); i++)
			if (probe_regs[i] && strlen(probe_regs[i]) == len - 1 &&
			    !memcmp(s + 1, probe_regs[i], len - 1)) {
				a->base = PROBE_BASE_REG;
				a->base_val = i;
				return 0;
			}
		return fail(err, "Invalid register name", pos, -EINVAL);
	}
	if (s[0] == '$')
		return parse_var(a, s, len, pos, ctx, err);
	if (s[0] == '@') {
		const char *plus = memchr(s, '+', len), *minus = memchr(s, '-', len);
		const char *end = plus ? plus : minus ? minus : s + len;
		char sym[PROBE_NAME_MAX * 2];
		unsigned long off = 0;

		if (len > 1 && s[1] == '+' && (ctx->flags & PROBE_CTX_USER)) {
			/* @+OFFSET: the memory at that offset of the probed file, as mapped */
			if (parse_number(s + 2, len - 2, &v))
				return fail(err, "Invalid file offset value", pos, -EINVAL);
			a->base = PROBE_BASE_FILE;
			a->base_val = v;
			a->deref[a->nderef++] = 0;
			return 0;
		}
		if (len > 1 && s[1] == '+')
			return fail(err, "File offset is not available with kprobe", pos, -EINVAL);
		if ((ctx->flags & PROBE_CTX_USER) && len > 1 && !(s[1] >= '0' && s[1] <= '9'))
			return fail(err, "Symbol is not available with uprobe", pos, -EINVAL);
		if (end - s - 1 <= 0 || (size_t)(end - s - 1) >= sizeof(sym))
			return fail(err, "Invalid memory address", pos, -EINVAL);
		memcpy(sym, s + 1, (size_t)(end - s - 1));
		sym[end - s - 1] = '\0';
		v = 0;
		if ((sym[0] >= '0' && sym[0] <= '9') ? parse_number(sym, strlen(sym), &v)
						     : !(v = kallsyms_lookup_name(sym)))
			return fail(err, "Invalid memory address", pos, -EINVAL);
		if (end < s + len && parse_number(end + 1, (size_t)(s + len - end - 1), &off))
			return fail(err, "Invalid memory address", pos, -EINVAL);
		a->base = PROBE_BASE_IMM;
		a->base_val = minus && !plus ? v - off : v + off;
		a->deref[a->nderef++] = 0;	/* @SYM is the memory at SYM */
		return 0;
	}
	if (s[0] == '+' || s[0] == '-') {
		const char *open = memchr(s, '(', len);
		bool user = len > 1 && s[1] == 'u';	/* +u<offset>: user memory */
		const char *num = s + 1 + user;
		unsigned long off;
		int ret;

		if (!open)
			return fail(err, "Dereference needs a brace", pos, -EINVAL);
		if (parse_number(num, (size_t)(open - num), &off))
			return fail(err, "Invalid dereference offset", pos, -EINVAL);
		if (s[len - 1] != ')')
			return fail(err, "Dereference brace is not closed", pos + (int)len, -EINVAL);
		ret = parse_fetch(a, open + 1, (size_t)(s + len - 1 - open - 1),
				  pos + (int)(open + 1 - s), ctx, err);
		if (ret)
			return ret;
		if (a->base == PROBE_BASE_COMM)
			return fail(err, "$comm can not be dereferenced", pos + (int)(open + 1 - s),
				    -EINVAL);
		if (a->nderef == PROBE_DEREF_MAX)
			return fail(err, "Dereference is too much nested", pos, -EINVAL);
		if (user)
			a->uderef |= (u16)(1u << a->nderef);
		a->deref[a->nderef++] = s[0] == '-' ? -(long)off : (long)off;
		return 0;
	}
	if (probe_is_ident(s, len))
		return fail(err, "BTF is not available or not supported", pos, -EOPNOTSUPP);
	return fail(err, "Invalid fetch argument", pos, -EINVAL);
}

/* `b<width>@<offset>/<container bits>`: an unsigned field of the container's size. */
static int parse_bitfield(struct probe_arg *a, const char *t, int pos, struct probe_error *err)
{
	const char *at = strchr(t, '@'), *slash = strchr(t, '/');
	unsigned long width, shift, bits;

	if (!at || !slash || slash < at || parse_number(t + 1, (size_t)(at - t - 1), &width) ||
	    parse_number(at + 1, (size_t)(slash - at - 1), &shift) ||
	    parse_number(slash + 1, strlen(slash + 1), &bits) ||
	    (bits != 8 && bits != 16 && bits != 32 && bits != 64) || !width ||
	    width + shift > bits)
		return fail(err, "Invalid bitfield", pos, -EINVAL);
	a->kind = PROBE_U;
	a->size = (u8)(bits / 8);
	a->bf_width = (u8)width;
	a->bf_shift = (u8)shift;
	return 0;
}

/* `TYPE[N]`: the count, the base type left in t. Linux's messages and carets. */
static int parse_array(struct probe_arg *a, char *t, int pos, struct probe_error *err)
{
	char *open = strchr(t, '['), *close;
	unsigned long n;

	if (!open)
		return 0;
	close = strchr(open, ']');
	if (!close)
		return fail(err, "Array is not closed", pos + (int)strlen(t), -EINVAL);
	if (close[1])
		return fail(err, "Array has wrong suffix", pos + (int)(close + 1 - t), -EINVAL);
	if (parse_number(open + 1, (size_t)(close - open - 1), &n) || !n)
		return fail(err, "Invalid array size", pos + (int)(open + 1 - t), -EINVAL);
	if (n > PROBE_ARRAY_MAX)
		return fail(err, "Array number is too big", pos + (int)(open + 1 - t), -EINVAL);
	if (!a->nderef && a->base != PROBE_BASE_FIELD)
		return fail(err, "String accepts only memory argument", pos, -EINVAL);
	a->count = (u8)n;
	*open = '\0';
	return 0;
}

/*
 * Linux 6.12 puts the caret of a type refused for user memory (an array,
 * symstr) three columns into the type, wherever it is (seen on the rig).
 */
#define USER_TYPE_CARET	3

/* Does the outermost +OFF(...) read user memory? */
static bool last_deref_user(const struct probe_arg *a)
{
	return a->nderef && (a->uderef >> (a->nderef - 1) & 1);
}

/*
 * `%pd` (the value is a struct dentry *) and `%pD` (a struct file *): the
 * name of the dentry, or of the file's, as a string; dereferences added
 * after the argument's own.
 */
static int parse_name_type(struct probe_arg *a, bool file, int pos, struct probe_error *err)
{
	if (a->nderef + 2 + file > PROBE_DEREF_MAX)
		return fail(err, "Dereference is too much nested", pos, -EINVAL);
	if (file)
		a->deref[a->nderef++] = offsetof(struct file, f_dentry);
	a->deref[a->nderef++] = offsetof(struct dentry, d_name);
	a->deref[a->nderef++] = 0;
	a->kind = PROBE_STRING;
	a->size = 4;
	return 0;
}

/* Types that name kernel things (symbols, dentries, files): not a uprobe's. */
static bool kernel_only_type(const char *t)
{
	return !strcmp(t, "symbol") || !strcmp(t, "symstr") || !strcmp(t, "%pd") ||
	       !strcmp(t, "%pD");
}

/* `:TYPE`; NULL type: the default (x64, or string for $comm). */
static int parse_type(struct probe_arg *a, char *t, int pos, const struct probe_ctx *ctx,
		      struct probe_error *err)
{
	unsigned long bits;
	int ret;

	bool str_only = a->base == PROBE_BASE_COMM || a->base == PROBE_BASE_IMMSTR;

	if (t && (ctx->flags & PROBE_CTX_USER) && kernel_only_type(t))
		return fail(err, "Unknown type is specified", pos, -EINVAL);

	if (t && !str_only) {
		ret = parse_array(a, t, pos, err);
		if (ret)
			return ret;
		/* an array is copied from kernel memory only (Linux refuses +u<offset> here) */
		if (a->count && last_deref_user(a))
			return fail(err, "String accepts only memory argument", pos + USER_TYPE_CARET,
				    -EINVAL);
		/* arrays of strings, symbols and bitfields are not kept */
		if (a->count && (!strcmp(t, "string") || !strcmp(t, "ustring") ||
				 !strcmp(t, "symbol") || t[0] == 'b'))
			return fail(err, "Unknown type is specified", pos, -EINVAL);
	}

	if (str_only) {
		if (t && strcmp(t, "string"))
			return fail(err, "$comm and immediate-string only accepts string type", pos,
				    -EINVAL);
		a->kind = PROBE_STRING;
		a->size = 4;
		return 0;
	}
	if (!t) {
		a->kind = PROBE_X;
		a->size = 8;
		return 0;
	}
	if (!strcmp(t, "string") || !strcmp(t, "ustring")) {
		/* an eprobe's field is a string's address (or a string field itself) */
		if (!a->nderef && a->base != PROBE_BASE_FIELD)
			return fail(err, "String accepts only memory argument", pos, -EINVAL);
		a->kind = PROBE_STRING;
		a->size = 4;
		a->ustring = t[0] == 'u' || last_deref_user(a);
		return 0;
	}
	if (!strcmp(t, "%pd") || !strcmp(t, "%pD"))
		return parse_name_type(a, t[2] == 'D', pos, err);
	if (!strcmp(t, "char")) {
		a->kind = PROBE_CHAR;
		a->size = 1;
		return 0;
	}
	if (t[0] == 'b')
		return parse_bitfield(a, t, pos, err);
	if (!strcmp(t, "symstr")) {
		if (last_deref_user(a))
			return fail(err, "Symbol String doesn't accept data/userdata",
				    pos + USER_TYPE_CARET, -EINVAL);
		a->kind = PROBE_SYMSTR;
		a->size = 4;
		return 0;
	}
	if (!strcmp(t, "symbol")) {
		a->kind = PROBE_SYMBOL;
		a->size = 8;
		return 0;
	}
	if ((t[0] == 'u' || t[0] == 's' || t[0] == 'x') && !parse_number(t + 1, strlen(t + 1), &bits) &&
	    t[1] != '0' && (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
		a->kind = t[0] == 'u' ? PROBE_U : t[0] == 's' ? PROBE_S : PROBE_X;
		a->size = (u8)(bits / 8);
		return 0;
	}
	return fail(err, "Unknown type is specified", pos, -EINVAL);
}

int probe_arg_parse(struct probe_args *pa, const char *text, int pos, const struct probe_ctx *ctx,
		    struct probe_error *err)
{
	struct probe_arg *a = &pa->args[pa->n];
	const char *eq = strchr(text, '='), *expr = text, *colon;
	char type[16], *t = NULL;
	size_t elen;
	int epos = pos, ret;

	if (pa->n == PROBE_ARGS_MAX)
		return fail(err, "Too many arguments", pos, -E2BIG);
	memset(a, 0, sizeof(*a));
	/* a name is an identifier before '=' (a '=' inside the expression is not one) */
	if (eq && !memchr(text, '(', (size_t)(eq - text)) && !memchr(text, ':', (size_t)(eq - text))) {
		size_t nlen = (size_t)(eq - text);

		if (!nlen)
			return fail(err, "Argument name is not specified", pos, -EINVAL);
		if (nlen > PROBE_ARG_NAME_MAX)
			return fail(err, "Argument name is too long", pos, -EINVAL);
		if (!probe_is_ident(text, nlen))
			return fail(err, "Argument name must follow the same rules as C identifiers",
				    pos, -EINVAL);
		a->name = kmalloc(nlen + 1, GFP_KERNEL);
		if (!a->name)
			return -ENOMEM;
		memcpy(a->name, text, nlen);
		a->name[nlen] = '\0';
		expr = eq + 1;
		epos = pos + (int)(expr - text);
	} else {
		char buf[16];

		snprintf(buf, sizeof(buf), "arg%u", pa->n + 1);
		a->name = kstrdup(buf, GFP_KERNEL);
		if (!a->name)
			return -ENOMEM;
	}
	for (unsigned int i = 0; i < pa->n; i++)
		if (!strcmp(pa->args[i].name, a->name)) {
			ret = fail(err, "This argument name is already used", pos, -EINVAL);
			goto out;
		}
	if (strlen(expr) > PROBE_EXPR_MAX) {
		ret = fail(err, "Argument expression is too long", epos, -EINVAL);
		goto out;
	}
	colon = strrchr(expr, ':');
	elen = colon ? (size_t)(colon - expr) : strlen(expr);
	ret = parse_fetch(a, expr, elen, epos, ctx, err);
	if (ret)
		goto out;
	if (colon) {
		if (strlen(colon + 1) >= sizeof(type)) {
			ret = fail(err, "Unknown type is specified", epos + (int)elen + 1, -EINVAL);
			goto out;
		}
		strcpy(type, colon + 1);
		t = type;
	}
	ret = parse_type(a, t, epos + (int)elen + 1, ctx, err);
	if (ret)
		goto out;
	a->expr = kstrdup(expr, GFP_KERNEL);
	if (!a->expr) {
		ret = -ENOMEM;
		goto out;
	}
	pa->n++;
	return 0;
out:
	kfree(a->name);
	kfree(a->imm_str);
	a->name = NULL;
	a->imm_str = NULL;
	return ret;
}

/* By size - 1, then array or not (Linux shows an array as `u8 name[]`, char arrays too). */
static const char *const uint_types[8][2] = {
	[0] = { "u8", "u8[]" }, [1] = { "u16", "u16[]" }, [3] = { "u32", "u32[]" },
	[7] = { "u64", "u64[]" },
};
static const char *const sint_types[8][2] = {
	[0] = { "s8", "s8[]" }, [1] = { "s16", "s16[]" }, [3] = { "s32", "s32[]" },
	[7] = { "s64", "s64[]" },
};

static const char *field_type(const struct probe_arg *a)
{
	switch (a->kind) {
	case PROBE_STRING:
	case PROBE_SYMSTR: return "__data_loc char[]";
	case PROBE_SYMBOL: return "u64";
	case PROBE_S: return sint_types[a->size - 1][!!a->count];
	default: return uint_types[a->size - 1][!!a->count];
	}
}

/* Bytes of the argument in the record. */
static unsigned int arg_bytes(const struct probe_arg *a)
{
	return a->size * (a->count ? a->count : 1u);
}

/* The print fmt conversion of an argument. */
static const char *arg_conversion(const struct probe_arg *a)
{
	bool wide = a->size == 8;

	switch (a->kind) {
	case PROBE_STRING:
	case PROBE_SYMSTR: return "\\\"%s\\\"";
	case PROBE_SYMBOL: return "%pS";
	case PROBE_CHAR: return "'%c'";
	case PROBE_S: return wide ? "%Ld" : "%d";
	case PROBE_X: return wide ? "0x%Lx" : "0x%x";
	default: return wide ? "%Lu" : "%u";
	}
}

int probe_args_finish(struct probe_args *pa, enum probe_head head)
{
	static const char *const heads[3][2] = {
		[PROBE_HEAD_IP] = { "__probe_ip", NULL },
		[PROBE_HEAD_RET] = { "__probe_func", "__probe_ret_ip" },
		[PROBE_HEAD_NONE] = { NULL, NULL },
	};
	static const char *const fmt_heads[3][2] = {
		[PROBE_HEAD_IP] = { "\"(%lx)", "\", REC->__probe_ip" },
		[PROBE_HEAD_RET] = { "\"(%lx <- %lx)", "\", REC->__probe_func, REC->__probe_ret_ip" },
		[PROBE_HEAD_NONE] = { "\"", "\"" },
	};
	unsigned int off = 8, nf = 0;
	size_t len = 64;
	char *fmt;
	int n;

	for (unsigned int i = 0; i < 2 && heads[head][i]; i++) {
		pa->fields[nf++] = (struct trace_event_field){
			.type = "unsigned long", .name = heads[head][i],
			.offset = (u16)off, .size = 8,
		};
		off += 8;
	}
	for (unsigned int i = 0; i < pa->n; i++) {
		struct probe_arg *a = &pa->args[i];

		a->offset = (u16)off;
		pa->fields[nf++] = (struct trace_event_field){
			.type = field_type(a), .name = a->name, .offset = (u16)off,
			.size = (u16)arg_bytes(a),
			.is_signed = a->kind == PROBE_S || probe_kind_is_str(a->kind),
			.filter_type = probe_kind_is_str(a->kind) ? FILTER_DYN_STRING : FILTER_OTHER,
		};
		off += arg_bytes(a);
		len += (strlen(a->name) + 16) * 2 * (a->count ? a->count : 1u) + 32;
	}
	pa->fields[nf].name = NULL;
	pa->size = off;
	if (off > PROBE_FIXED_MAX)
		return -E2BIG;
	fmt = kmalloc(len, GFP_KERNEL);
	if (!fmt)
		return -ENOMEM;
	n = snprintf(fmt, len, "%s", fmt_heads[head][0]);
	for (unsigned int i = 0; i < pa->n; i++) {
		const struct probe_arg *a = &pa->args[i];

		n += snprintf(fmt + n, len - (size_t)n, " %s=%s", a->name, a->count ? "{" : "");
		for (unsigned int k = 0; k < (a->count ? a->count : 1u); k++)
			n += snprintf(fmt + n, len - (size_t)n, "%s%s", k ? "," : "",
				      arg_conversion(a));
		n += snprintf(fmt + n, len - (size_t)n, "%s", a->count ? "}" : "");
	}
	n += snprintf(fmt + n, len - (size_t)n, "%s", fmt_heads[head][1]);
	for (unsigned int i = 0; i < pa->n; i++) {
		const struct probe_arg *a = &pa->args[i];

		if (probe_kind_is_str(a->kind))
			n += snprintf(fmt + n, len - (size_t)n, ", __get_str(%s)", a->name);
		else if (!a->count)
			n += snprintf(fmt + n, len - (size_t)n, ", REC->%s", a->name);
		for (unsigned int k = 0; k < a->count; k++)
			n += snprintf(fmt + n, len - (size_t)n, ", REC->%s[%u]", a->name, k);
	}
	pa->print_fmt = fmt;
	return 0;
}

int probe_args_diff(const struct probe_args *a, const struct probe_args *b)
{
	unsigned int n = a->n < b->n ? a->n : b->n;

	for (unsigned int i = 0; i < n; i++) {
		const struct probe_arg *x = &a->args[i], *y = &b->args[i];

		if (strcmp(x->name, y->name) || x->kind != y->kind || x->size != y->size ||
		    x->count != y->count || x->bf_width != y->bf_width || x->bf_shift != y->bf_shift)
			return (int)i;
	}
	return a->n == b->n ? -1 : (int)n;
}

void probe_args_free(struct probe_args *pa)
{
	for (unsigned int i = 0; i < pa->n; i++) {
		kfree(pa->args[i].name);
		kfree(pa->args[i].expr);
		kfree(pa->args[i].imm_str);
	}
	kfree(pa->print_fmt);
	pa->n = 0;
	pa->print_fmt = NULL;
}

int probe_args_show(const struct probe_args *pa, char *buf, size_t size)
{
	size_t n = 0;

	for (unsigned int i = 0; i < pa->n; i++)
		n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, " %s=%s",
				      pa->args[i].name, pa->args[i].expr);
	return (int)n;
}

static u64 read_value(const u8 *p, unsigned int size, bool sign)
{
	u64 v = 0;

	memcpy(&v, p, size);
	if (sign && size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~0ULL << (size * 8);
	return v;
}

/* One value of a at p in record r (len bytes). */
static void print_value(struct trace_seq *s, const struct probe_arg *a, const u8 *r, const u8 *p,
			unsigned int len)
{
	u64 v = read_value(p, a->size, a->kind == PROBE_S);
	char sym[128];

	switch (a->kind) {
	case PROBE_STRING:
	case PROBE_SYMSTR: {
		u32 loc = (u32)v, off = loc & 0xffff, slen = loc >> 16;

		if (!slen || off + slen > len)
			trace_seq_puts(s, "(fault)");
		else
			trace_seq_printf(s, "\"%.*s\"", (int)(slen - 1), (const char *)r + off);
		break;
	}
	case PROBE_CHAR:
		trace_seq_printf(s, "'%c'", (char)v);
		break;
	case PROBE_SYMBOL:
		sprint_symbol(sym, sizeof(sym), (unsigned long)v);
		trace_seq_puts(s, sym);
		break;
	case PROBE_S:
		trace_seq_printf(s, "%lld", (long long)v);
		break;
	case PROBE_X:
		trace_seq_printf(s, "0x%llx", (unsigned long long)v);
		break;
	default:
		trace_seq_printf(s, "%llu", (unsigned long long)v);
		break;
	}
}

void probe_args_print(struct trace_seq *s, const struct probe_args *pa, const void *rec,
		      unsigned int len)
{
	const u8 *r = rec;

	for (unsigned int i = 0; i < pa->n; i++) {
		const struct probe_arg *a = &pa->args[i];

		trace_seq_printf(s, " %s=%s", a->name, a->count ? "{" : "");
		for (unsigned int k = 0; k < (a->count ? a->count : 1u); k++) {
			if (k)
				trace_seq_putc(s, ',');
			print_value(s, a, r, r + a->offset + k * a->size, len);
		}
		if (a->count)
			trace_seq_putc(s, '}');
	}
}

/* --- commands ----------------------------------------------------------------------------- */

int probe_cmd_split(struct probe_cmd *c, const char *cmd)
{
	size_t len = strlen(cmd);
	char *buf = kmalloc(len * 2 + 2, GFP_KERNEL), *p;
	int col = 0;

	if (!buf)
		return -ENOMEM;
	c->text = buf;
	p = buf + len + 1;
	memcpy(p, cmd, len + 1);
	c->argc = 0;
	buf[0] = '\0';
	c->err.msg = NULL;
	c->err.first = NULL;
	while (*(p += strspn(p, " \t"))) {
		size_t wlen = strcspn(p, " \t");

		if (c->argc == (int)ARRAY_SIZE(c->argv))
			return -E2BIG;
		if (col)
			buf[col++] = ' ';
		memcpy(buf + col, p, wlen);
		buf[col + (int)wlen] = '\0';
		c->argv[c->argc] = p;
		c->pos[c->argc++] = col;
		col += (int)wlen;
		p += wlen;
		if (*p)
			*p++ = '\0';
	}
	return 0;
}

void probe_cmd_free(struct probe_cmd *c)
{
	kfree(c->text);
	c->text = NULL;
}

int probe_cmd_fail(struct probe_cmd *c, const char *msg, int pos, int ret)
{
	return fail(&c->err, msg, pos, ret);
}

int probe_cmd_fail2(struct probe_cmd *c, const char *first, int first_pos, const char *msg, int pos,
		    int ret)
{
	c->err.first = first;
	c->err.first_pos = first_pos;
	return fail(&c->err, msg, pos, ret);
}

int probe_cmd_name(struct probe_cmd *c, int word, char *w, char sep2, const char **group,
		   const char **event)
{
	char *slash = strchr(w, '/');
	int pos = c->pos[word] + (int)(w - c->argv[word]);

	if (!slash && sep2)
		slash = strchr(w, sep2);
	*group = NULL;
	*event = NULL;
	if (slash) {
		*slash = '\0';
		if (!*w)
			return fail(&c->err, "Group name is not specified", pos, -EINVAL);
		if (strlen(w) >= PROBE_NAME_MAX)
			return fail(&c->err, "Group name is too long", pos, -EINVAL);
		if (!probe_is_ident(w, strlen(w)))
			return fail(&c->err, "Group name must follow the same rules as C identifiers",
				    pos, -EINVAL);
		*group = w;
		w = slash + 1;
		pos = c->pos[word] + (int)(w - c->argv[word]);
	}
	if (!*w && slash)
		return 0;		/* `GROUP/`: the event gets the default name */
	if (!*w)
		return fail(&c->err, "Event name is not specified", pos, -EINVAL);
	if (strlen(w) >= PROBE_NAME_MAX)
		return fail(&c->err, "Event name is too long", pos, -EINVAL);
	if (!probe_is_ident(w, strlen(w)))
		return fail(&c->err, "Event name must follow the same rules as C identifiers", pos,
			    -EINVAL);
	*event = w;
	return 0;
}
