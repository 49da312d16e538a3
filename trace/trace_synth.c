/*
 * Synthetic events: the `synthetic_events` command language, the record
 * layout of each event (common header, then one slot per field, then the
 * payload of char[]/long[] fields behind __data_loc words), and the
 * trace()/synth() action that fills such a record from a hist update.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <trace/hist.h>
#include <trace/trace_events_hist.h>
#include <trace/trace_synth.h>

#define SYNTH_REC_MAX	2048	/* a generated record, dynamic payload included */

static void synth_err(struct hist_instance *inst, const char *msg, unsigned int pos)
{
	hist_err(&inst->last_error, -EINVAL, msg, pos);
}

/* --- types --------------------------------------------------------------------------------- */

static const struct { const char *type; unsigned int size; } synth_types[] = {
	{ "s64", 8 }, { "u64", 8 }, { "s32", 4 }, { "u32", 4 }, { "s16", 2 }, { "u16", 2 },
	{ "s8", 1 }, { "u8", 1 }, { "char", 1 }, { "unsigned char", 1 }, { "int", 4 },
	{ "unsigned int", 4 }, { "long", 8 }, { "unsigned long", 8 }, { "bool", 1 },
	{ "pid_t", 4 }, { "gfp_t", 4 },
};

/* Fill f's layout from its type text; false if the type is not one we know. */
static bool synth_field_set_type(struct synth_field *f)
{
	const char *t = f->type;
	size_t len = strlen(t);

	f->is_signed = !(t[0] == 'u' || !strcmp(t, "gfp_t"));
	if (!strcmp(t, "char[]")) {
		f->is_string = f->is_dynamic = true;
		f->size = sizeof(u64);
		return true;
	}
	if (!strcmp(t, "long[]") || !strcmp(t, "unsigned long[]")) {
		f->is_stack = f->is_dynamic = true;
		f->size = sizeof(u64);
		return true;
	}
	if (!strncmp(t, "char[", 5) && len > 6 && t[len - 1] == ']') {
		unsigned long long n;
		char digits[8] = "";

		if (len - 6 > 3)
			return false;
		memcpy(digits, t + 5, len - 6);
		if (kstrtoull(digits, 10, &n) || !n || n > STR_VAR_LEN_MAX)
			return false;
		f->is_string = true;
		f->size = (unsigned int)n;
		return true;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(synth_types); i++) {
		if (!strcmp(t, synth_types[i].type)) {
			f->size = synth_types[i].size;
			return true;
		}
	}
	return false;
}

/* --- registry --------------------------------------------------------------------------------- */

struct synth_event *synth_event_find(struct hist_instance *inst, const char *name)
{
	struct hist_event *ev = hist_find_event(inst->synth_home ? inst->synth_home : inst,
						SYNTH_SYSTEM, name);

	return ev && ev->is_synthetic ? container_of(ev, struct synth_event, event) : NULL;
}

static void synth_event_free(struct synth_event *se)
{
	for (unsigned int i = 0; i < se->n_fields; i++) {
		kfree(se->fields[i].type);
		kfree(se->fields[i].name);
	}
	kfree(se->print_fmt);
	kfree(se->name);
	kfree(se);
}

void synth_event_put(struct synth_event *se)
{
	se->ref--;
}

/* Lay the fields out in u64 slots and describe them as event fields (format, filters, hist). */
static void synth_event_layout(struct synth_event *se)
{
	unsigned int off = sizeof(struct trace_entry);

	for (unsigned int i = 0; i < se->n_fields; i++) {
		struct synth_field *f = &se->fields[i];
		struct trace_event_field *ef = &se->event_fields[i];

		f->offset = off;
		off += f->is_string && !f->is_dynamic ? STR_VAR_LEN_MAX : sizeof(u64);
		ef->type = f->type;
		ef->name = f->name;
		ef->offset = (u16)f->offset;
		ef->size = (u16)f->size;
		ef->is_signed = f->is_signed;
		ef->filter_type = f->is_dynamic && f->is_string ? FILTER_DYN_STRING :
				  f->is_string ? FILTER_STATIC_STRING : FILTER_OTHER;
	}
	se->fixed_size = off;
	se->call.system = SYNTH_SYSTEM;
	se->call.name = se->name;
	se->call.size = (u16)off;
	se->call.fields = se->event_fields;
	se->call.output = synth_event_output;
	se->event.system = SYNTH_SYSTEM;
	se->event.name = se->name;
	se->event.call = &se->call;
	se->event.is_synthetic = true;
	INIT_LIST_HEAD(&se->event.triggers);
}

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool valid_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!is_word_char(*s))
			return false;
	return true;
}

/* Reads blank/';'-separated words of a command in place. */
struct word_cursor {
	char *s;
	size_t pos;
	bool semi_pending;	/* the word just cut ended at a ';' */
};

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ';';
}

/* The next word, NUL-terminated; *semi tells whether a ';' came before it. */
static char *next_word(struct word_cursor *c, bool *semi)
{
	char *w;

	*semi = c->semi_pending;
	c->semi_pending = false;
	while (is_sep(c->s[c->pos]))
		*semi |= c->s[c->pos++] == ';';
	if (!c->s[c->pos])
		return NULL;
	w = c->s + c->pos;
	while (c->s[c->pos] && !is_sep(c->s[c->pos]))
		c->pos++;
	if (c->s[c->pos]) {
		c->semi_pending = c->s[c->pos] == ';';
		c->s[c->pos++] = '\0';
	}
	return w;
}

#define SYNTH_FORM_ERR	"Command must be of the form: <name> field[;field] ..."
#define SYNTH_DYN_FORM_ERR \
	"Command must be of the form: s or -:[synthetic/]<name> field[;field] ..."

/*
 * Define the event `name type field; ...` found at cmd + start (cmd is
 * the whole command: error positions are offsets in it).
 */
static int synth_event_create(struct hist_instance *inst, char *cmd, size_t start,
			      const char *form_err)
{
	struct synth_event *se;
	struct word_cursor cur = { cmd, start, false };
	unsigned int words = 0;
	bool semi;
	char *name, *w;
	int ret = -EINVAL;

	/* The first field must be complete: name, type and field name. */
	for (size_t p = start; cmd[p] && cmd[p] != ';'; p++)
		if (!is_sep(cmd[p]) && (p == start || is_sep(cmd[p - 1])))
			words++;
	name = next_word(&cur, &semi);
	if (!name || words < 3) {
		synth_err(inst, form_err, 0);
		return -EINVAL;
	}
	if (!valid_name(name)) {
		synth_err(inst, "Illegal name", (unsigned int)(name - cmd));
		return -EINVAL;
	}
	if (synth_event_find(inst, name)) {
		synth_err(inst, "Event already exists", (unsigned int)(name - cmd));
		return -EEXIST;
	}
	se = kzalloc(sizeof(*se), GFP_KERNEL);
	if (!se || !(se->name = kstrdup(name, GFP_KERNEL)))
		goto fail_nomem;

	while ((w = next_word(&cur, &semi))) {
		struct synth_field *f = &se->fields[se->n_fields];
		char type[64], *fname, *bracket;

		if (se->n_fields == SYNTH_FIELDS_MAX) {
			/* Linux puts the caret under the command's start. */
			synth_err(inst, "Too many fields", 0);
			goto fail;
		}
		if (!strcmp(w, "unsigned")) {
			char *w2 = next_word(&cur, &semi);

			if (!w2 || semi) {
				synth_err(inst, "Incomplete type", (unsigned int)(w - cmd));
				goto fail;
			}
			scnprintf(type, sizeof(type), "unsigned %s", w2);
		} else {
			scnprintf(type, sizeof(type), "%s", w);
		}
		fname = next_word(&cur, &semi);
		if (!fname || semi) {
			/* `unsigned X` with no name: Linux counts the words, the type is short */
			synth_err(inst, strcmp(w, "unsigned") ? "Invalid field" : "Incomplete type",
				  (unsigned int)(w - cmd));
			goto fail;
		}
		/* `char comm[16]`: the array suffix belongs to the type */
		bracket = strchr(fname, '[');
		if (bracket) {
			if (strlen(type) + strlen(bracket) >= sizeof(type) || strchr(type, '[')) {
				synth_err(inst, "Invalid array specification", (unsigned int)(fname - cmd));
				goto fail;
			}
			strcat(type, bracket);
			*bracket = '\0';
		}
		if (!valid_name(fname)) {
			synth_err(inst, "Illegal name", (unsigned int)(fname - cmd));
			goto fail;
		}
		f->type = kstrdup(type, GFP_KERNEL);
		f->name = kstrdup(fname, GFP_KERNEL);
		se->n_fields++;
		if (!f->type || !f->name)
			goto fail_nomem;
		if (!synth_field_set_type(f)) {
			/* a bad array size is the field's fault, any other the type's */
			if (strchr(type, '['))
				synth_err(inst, "Invalid array specification", (unsigned int)(fname - cmd));
			else
				synth_err(inst, "Invalid type", (unsigned int)(w - cmd));
			goto fail;
		}
		if (f->is_dynamic) {
			char *dl = kmalloc(strlen(type) + 12, GFP_KERNEL);

			if (!dl)
				goto fail_nomem;
			scnprintf(dl, strlen(type) + 12, "__data_loc %s", type);
			kfree(f->type);
			f->type = dl;
		}
	}
	synth_event_layout(se);
	if (synth_event_set_print_fmt(se))
		goto fail_nomem;
	if (inst->event_added && (ret = inst->event_added(inst, &se->event)))
		goto fail;
	list_add_tail(&se->event.list, &inst->events);
	return 0;
fail_nomem:
	ret = -ENOMEM;
fail:
	if (se)
		synth_event_free(se);
	return ret;
}

static int synth_event_delete(struct hist_instance *inst, struct synth_event *se)
{
	int ret;

	if (se->ref || !list_empty(&se->event.triggers))
		return -EBUSY;
	if (inst->event_removing && (ret = inst->event_removing(inst, &se->event)))
		return ret;
	list_del(&se->event.list);
	synth_event_free(se);
	return 0;
}

/* Start an error report for a synthetic_events / dynamic_events command. */
static void synth_err_begin(struct hist_instance *inst, const char *text)
{
	struct hist_error *err = &inst->last_error;

	memset(err, 0, sizeof(*err));
	scnprintf(err->loc, sizeof(err->loc), "synthetic_events");
	scnprintf(err->cmd, sizeof(err->cmd), "%s", text);
}

static int synth_event_delete_named(struct hist_instance *inst, char *cmd, size_t start)
{
	struct word_cursor cur = { cmd, start, false };
	bool semi;
	char *name = next_word(&cur, &semi);
	struct synth_event *se = name ? synth_event_find(inst, name) : NULL;

	return se ? synth_event_delete(inst, se) : -ENOENT;
}

int synth_events_write(struct hist_instance *inst, const char *text)
{
	char *cmd;
	int ret;

	synth_err_begin(inst, text);
	if (strlen(text) > HIST_CMD_MAX)
		return -EINVAL;
	cmd = kstrdup(text, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	if (cmd[0] == '!')
		ret = synth_event_delete_named(inst, cmd, 1);
	else
		ret = synth_event_create(inst, cmd, 0, SYNTH_FORM_ERR);
	kfree(cmd);
	if (!ret)
		memset(&inst->last_error, 0, sizeof(inst->last_error));
	return ret;
}

int synth_dynevents_write(struct hist_instance *inst, const char *text)
{
	static const char group[] = SYNTH_SYSTEM "/";
	bool remove = text[0] == '-' || text[0] == '!';
	size_t start = remove && text[0] == '!' ? 1 : 0;
	char *cmd;
	int ret;

	synth_err_begin(inst, text);
	if (strlen(text) > HIST_CMD_MAX)
		return -EINVAL;
	/* `s:` defines, `-:` (or `!s:`) removes; other kinds of dynamic event are not ours */
	if (text[start] != (remove && !start ? '-' : 's') || text[start + 1] != ':')
		return -EINVAL;
	start += 2;
	if (!strncmp(text + start, group, sizeof(group) - 1)) {
		start += sizeof(group) - 1;
	} else if (strcspn(text + start, "/ \t") < strcspn(text + start, " \t")) {
		/* a synthetic event may only live in the synthetic group */
		synth_err(inst, SYNTH_DYN_FORM_ERR, 0);
		return -EINVAL;
	}
	cmd = kstrdup(text, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	if (remove)
		ret = synth_event_delete_named(inst, cmd, start);
	else
		ret = synth_event_create(inst, cmd, start, SYNTH_DYN_FORM_ERR);
	kfree(cmd);
	if (!ret)
		memset(&inst->last_error, 0, sizeof(inst->last_error));
	return ret;
}

int synth_events_show(struct hist_instance *inst, bool dynevents, char *buf, size_t size)
{
	struct hist_event *ev;
	int n = 0;

	if (size)
		buf[0] = '\0';
	list_for_each_entry(ev, &inst->events, list) {
		struct synth_event *se;

		if (!ev->is_synthetic)
			continue;
		se = container_of(ev, struct synth_event, event);
		n += scnprintf(buf + n, size - n, "%s%s\t", dynevents ? "s:" SYNTH_SYSTEM "/" : "",
			       se->name);
		for (unsigned int i = 0; i < se->n_fields; i++) {
			const char *t = se->fields[i].type;

			if (!strncmp(t, "__data_loc ", 11))
				t += 11;
			n += scnprintf(buf + n, size - n, "%s%s %s", i ? "; " : "", t,
				       se->fields[i].name);
		}
		n += scnprintf(buf + n, size - n, "\n");
	}
	return n;
}

int synth_events_release_all(struct hist_instance *inst)
{
	struct hist_event *ev, *tmp;

	list_for_each_entry(ev, &inst->events, list) {
		struct synth_event *se = container_of(ev, struct synth_event, event);

		if (ev->is_synthetic && (se->ref || !list_empty(&ev->triggers)))
			return -EBUSY;
	}
	list_for_each_entry_safe(ev, tmp, &inst->events, list)
		if (ev->is_synthetic)
			synth_event_delete(inst, container_of(ev, struct synth_event, event));
	return 0;
}

/* --- the trace() action -------------------------------------------------------------------------- */

/* Can a value of type/size/signedness `p` go into synthetic field f? */
static bool synth_type_ok(const struct hist_field *p, const struct synth_field *f)
{
	const char *ft = f->type;

	if (!strncmp(ft, "__data_loc ", 11))
		ft += 11;
	if (!strcmp(p->type, ft))
		return true;
	if (f->is_stack)
		return (p->flags & HIST_FIELD_FL_STACKTRACE) || strstr(p->type, "long[");
	if (f->is_string)
		return (p->flags & HIST_FIELD_FL_STRING) && (f->is_dynamic || !strncmp(p->type, "char[", 5));
	if (p->flags & HIST_FIELD_FL_STRING)
		return false;
	return p->size == f->size && p->is_signed == f->is_signed;
}

/* Is var one of the variables save() fills? */
static bool is_save_var(const struct hist_trigger_data *hd, const struct hist_field *var)
{
	for (unsigned int i = 0; i < hd->n_save_vars; i++)
		if (hd->save_vars[i]->var == var)
			return true;
	return false;
}

/*
 * A plain field of the trigger's own event, kept in a field variable for
 * the action. A save() variable of the same name is no substitute: it is
 * only set once onmax/onchange fires, and an unset reference drops the event.
 */
static struct hist_field *create_field_var(struct hist_trigger_data *hd, char *param)
{
	struct hist_field *var = hist_find_var_field(hd, param), *val;
	struct field_var *fv;

	if (var && !is_save_var(hd, var))
		return hist_create_var_ref(hd, var, NULL, NULL);
	if (hd->n_field_vars == SYNTH_FIELDS_MAX) {
		hist_err_id(hd->err, TOO_MANY_FIELD_VARS, hist_errpos(hd->attrs, param));
		return NULL;
	}
	fv = kzalloc(sizeof(*fv), GFP_KERNEL);
	if (!fv)
		return NULL;
	val = hist_parse_expr_copy(hd, param, HIST_FIELD_FL_VAR, param);
	if (!val) {
		kfree(fv);
		return NULL;
	}
	fv->var = val;
	hd->field_vars[hd->n_field_vars++] = fv;
	if (hist_assign_var(hd, val))
		return NULL;
	return hist_create_var_ref(hd, val, NULL, NULL);
}

/*
 * A plain-field param: `field` or `sys.event.field`. A field of the
 * trigger's own event becomes a field variable here; one of the onmatch()
 * event lives in a histogram on that event (hist_field_var_hist_ref()).
 */
static struct hist_field *action_field_param(struct hist_trigger_data *hd,
					     struct action_data *data, char *param)
{
	const char *system = NULL, *event_name = NULL, *field = param;
	char qual[128];
	struct hist_event *ev;

	if (strchr(param, '.')) {
		char *dot1, *dot2;

		scnprintf(qual, sizeof(qual), "%s", param);
		dot1 = strchr(qual, '.');
		dot2 = strchr(dot1 + 1, '.');
		if (!dot2 || strchr(dot2 + 1, '.')) {
			hist_err_id(hd->err, INVALID_PARAM, hist_errpos(hd->attrs, param));
			return NULL;
		}
		*dot1 = *dot2 = '\0';
		system = qual;
		event_name = dot1 + 1;
		field = param + (dot2 + 1 - qual);
	}
	if ((!system || (!strcmp(system, hd->event->system) && !strcmp(event_name, hd->event->name))) &&
	    hist_event_find_field(hd->event, field))
		return create_field_var(hd, (char *)field);
	if (data->handler != HANDLER_ONMATCH ||
	    (system && (strcmp(system, data->match_data.event_system) ||
			strcmp(event_name, data->match_data.event)))) {
		hist_err_id(hd->err, FIELD_VAR_CREATE_FAIL, hist_errpos(hd->attrs, param));
		return NULL;
	}
	ev = hist_find_event(hd->inst, data->match_data.event_system, data->match_data.event);
	return hist_field_var_hist_ref(hd, ev, field, param);
}

int synth_action_create(struct hist_trigger_data *hd, struct action_data *data)
{
	struct synth_event *se = synth_event_find(hd->inst, data->synth_event_name);

	if (!se) {
		hist_err_id(hd->err, SYNTH_EVENT_NOT_FOUND, hist_errpos(hd->attrs, data->synth_event_name));
		return -EINVAL;
	}
	if (data->n_params != se->n_fields) {
		hist_err_id(hd->err, SYNTH_COUNT_MISMATCH, hist_errpos(hd->attrs, data->synth_event_name));
		return -EINVAL;
	}
	data->synth_event = se;
	se->ref++;
	for (unsigned int i = 0; i < data->n_params; i++) {
		char *param = data->params[i];
		struct hist_field *ref;

		if (strchr(param, '$')) {
			ref = hist_parse_expr_copy(hd, param, 0, NULL);
			if (ref && !(ref->flags & HIST_FIELD_FL_VAR_REF)) {
				hist_field_destroy(ref);
				hist_err_id(hd->err, INVALID_PARAM, hist_errpos(hd->attrs, param));
				return -EINVAL;
			}
		} else {
			ref = action_field_param(hd, data, param);
		}
		if (!ref)
			return -EINVAL;
		/* Each action param holds its own reference count. */
		hist_field_destroy(ref);
		data->var_ref_idx[i] = ref->var_ref_idx;
		if (!synth_type_ok(ref, &se->fields[i])) {
			hist_err_id(hd->err, SYNTH_TYPE_MISMATCH, hist_errpos(hd->attrs, param));
			return -EINVAL;
		}
	}
	return 0;
}

void synth_action_trace(struct hist_trigger_data *hd, struct action_data *data,
			struct tracing_map_elt *elt, const struct hist_event_ctx *ctx,
			const u64 *var_ref_vals)
{
	struct synth_event *se = data->synth_event;
	char rec[SYNTH_REC_MAX] __aligned(8);
	struct trace_entry *ent = (struct trace_entry *)rec;
	unsigned int len = se->fixed_size;
	struct hist_event_ctx sctx = *ctx;
	struct hist_trigger_data *shd;

	/*
	 * Linux limits the field count, not the size: a record too large to
	 * build here (or for a ring-buffer event) is dropped, as Linux's
	 * reservation of it fails.
	 */
	if (se->fixed_size > SYNTH_REC_MAX - STR_VAR_LEN_MAX)
		return;
	memset(rec, 0, se->fixed_size);
	ent->type = se->call.id;
	ent->pid = ctx->pid;
	for (unsigned int i = 0; i < se->n_fields; i++) {
		const struct synth_field *f = &se->fields[i];
		u64 v = var_ref_vals[data->var_ref_idx[i]];

		if (f->is_dynamic) {
			unsigned int n = 0;
			u32 loc;

			if (f->is_stack) {
				const unsigned long *st = (const unsigned long *)(uptr)v;

				while (st && n < HIST_STACKTRACE_SIZE && st[n / 8] && len + n + 8 <= SYNTH_REC_MAX)
					memcpy(rec + len + n, &st[n / 8], 8), n += 8;
			} else {
				const char *s = (const char *)(uptr)v;

				while (s && s[n] && n + 1 < STR_VAR_LEN_MAX && len + n + 1 < SYNTH_REC_MAX)
					rec[len + n] = s[n], n++;
				rec[len + n++] = '\0';
			}
			loc = (u32)(n << 16 | len);
			memcpy(rec + f->offset, &loc, 4);
			len += ALIGN_UP(n, 4);
		} else if (f->is_string) {
			const char *s = (const char *)(uptr)v;
			unsigned int n = 0;

			for (; s && s[n] && n + 1 < f->size; n++)
				rec[f->offset + n] = s[n];
		} else {
			memcpy(rec + f->offset, &v, f->size);
		}
	}
	if (hd->inst->synth_emit) {
		hd->inst->synth_emit(hd->inst, &se->event, rec, len);
		return;
	}
	sctx.rec = rec;
	sctx.rec_size = len;
	list_for_each_entry(shd, &se->event.triggers, list)
		hist_trigger_event(shd, &sctx);
}
