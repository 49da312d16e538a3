/*
 * The hist trigger language, first pass: split a trigger line into its
 * attributes, variable definitions and handler.action clauses. Nothing is
 * looked up here; hist_field.c and trace_events_hist.c give the parts
 * meaning. Tokens stay inside attrs->cmd (laid out like the error_log
 * command), so every error carries the exact offset of its token.
 */
#include <kernel/types.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/err.h>
#include <trace/hist.h>

#define C(a, b) b
const char *const hist_err_text[] = { HIST_ERRORS(C) };
#undef C

void hist_err(struct hist_error *err, int errno_val, const char *msg, unsigned int pos)
{
	if (err->err)
		return;
	err->err = errno_val;
	err->msg = msg;
	err->pos = pos;
}

unsigned int hist_errpos(const struct hist_trigger_attrs *attrs, const char *token)
{
	if (token && attrs->shadow && token >= attrs->shadow &&
	    token <= attrs->shadow + attrs->shadow_len)
		token = attrs->shadow_of + (token - attrs->shadow);
	if (!token || !attrs->cmd || token < attrs->cmd || token > attrs->cmd + attrs->cmd_len)
		return 0;
	return (unsigned int)(token - attrs->cmd);
}

int hist_error_format(const struct hist_error *err, char *buf, size_t size)
{
	int n = scnprintf(buf, size, "%s: error: %s\n  Command: %s\n%*s^\n",
			  err->loc, err->msg ? err->msg : "", err->cmd,
			  (int)(2 + 9 + err->pos), "");

	return n;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Trim blanks in place: returns the first non-blank, cuts trailing ones. */
static char *strim(char *s)
{
	char *end;

	while (is_blank(*s))
		s++;
	end = s + strlen(s);
	while (end > s && is_blank(end[-1]))
		*--end = '\0';
	return s;
}

/*
 * The filter starts at the first "if" with a blank on both sides. Like
 * Linux, an "if" opening the command or a trailing " if" is malformed.
 */
static int split_filter(char *param, char **filter, struct hist_error *err,
			const struct hist_trigger_attrs *attrs)
{
	size_t len = strlen(param);

	*filter = NULL;
	for (char *p = param; (p = strstr(p, "if")); p++) {
		if (p == param) {
			hist_err(err, -EINVAL, "Missing keys before 'if'", hist_errpos(attrs, p));
			return -EINVAL;
		}
		if (!is_blank(p[-1]))
			continue;
		if (p + 2 >= param + len || (p[2] == '\0')) {
			hist_err(err, -EINVAL, "Missing filter after 'if'", hist_errpos(attrs, p));
			return -EINVAL;
		}
		if (!is_blank(p[2]))
			continue;
		p[-1] = '\0';
		*filter = strim(p + 2);
		if (!**filter) {
			hist_err(err, -EINVAL, "Missing filter after 'if'", hist_errpos(attrs, p));
			return -EINVAL;
		}
		return 0;
	}
	return 0;
}

/* ".sym-offset" would read as a minus: rename it before splitting expressions. */
static void hide_sym_offset(char *s)
{
	while ((s = strstr(s, ".sym-offset")))
		s[4] = 'X', s += 11;
}

static unsigned int roundup_bits(unsigned long n)
{
	unsigned int bits = 0;

	while ((1UL << bits) < n && bits < 63)
		bits++;
	return bits;
}

static const char *has_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) ? NULL : s + n;
}

static int parse_assignment(char *str, struct hist_trigger_attrs *attrs, struct hist_error *err)
{
	const char *v;

	if ((v = has_prefix(str, "key=")) || (v = has_prefix(str, "keys="))) {
		attrs->keys_str = (char *)v;
	} else if ((v = has_prefix(str, "val=")) || (v = has_prefix(str, "vals=")) ||
		   (v = has_prefix(str, "values="))) {
		attrs->vals_str = (char *)v;
	} else if ((v = has_prefix(str, "sort="))) {
		attrs->sort_key_str = (char *)v;
	} else if ((v = has_prefix(str, "name="))) {
		attrs->name = (char *)v;
	} else if ((v = has_prefix(str, "clock="))) {
		attrs->clock = strim((char *)v);
	} else if ((v = has_prefix(str, "size="))) {
		unsigned long long size;

		if (kstrtoull(v, 0, &size) || !size || size > (1UL << TRACING_MAP_BITS_MAX) ||
		    roundup_bits(size) < TRACING_MAP_BITS_MIN) {
			hist_err(err, -EINVAL, "Invalid size (128..131072)", hist_errpos(attrs, v));
			return -EINVAL;
		}
		attrs->map_bits = roundup_bits(size);
	} else {
		if (attrs->n_assignments == HIST_ASSIGNMENTS_MAX) {
			hist_err_id(err, TOO_MANY_VARS, hist_errpos(attrs, str));
			return -EINVAL;
		}
		attrs->assignment_str[attrs->n_assignments++] = str;
	}
	return 0;
}

static int parse_attr(char *str, struct hist_trigger_attrs *attrs, struct hist_error *err)
{
	char *eq = strchr(str, '=');

	if (eq) {
		if (!eq[1]) {
			hist_err_id(err, EMPTY_ASSIGNMENT, hist_errpos(attrs, str));
			return -EINVAL;
		}
		return parse_assignment(str, attrs, err);
	}
	if (!strcmp(str, "nohitcount") || !strcmp(str, "NOHC")) {
		attrs->no_hitcount = true;
	} else if (!strcmp(str, "pause")) {
		attrs->pause = true;
	} else if (!strcmp(str, "cont") || !strcmp(str, "continue")) {
		attrs->cont = true;
	} else if (!strcmp(str, "clear")) {
		attrs->clear = true;
	} else if (has_prefix(str, "onmatch(") || has_prefix(str, "onmax(") ||
		   has_prefix(str, "onchange(")) {
		if (attrs->n_actions == HIST_ACTIONS_MAX) {
			hist_err(err, -EINVAL, "Too many actions (8 max)", hist_errpos(attrs, str));
			return -EINVAL;
		}
		attrs->action_str[attrs->n_actions++] = str;
	} else {
		hist_err(err, -EINVAL, "Unknown hist attribute", hist_errpos(attrs, str));
		return -EINVAL;
	}
	return 0;
}

int hist_parse_attrs(const char *text, struct hist_trigger_attrs *attrs, struct hist_error *err)
{
	char *param, *filter, *str;
	size_t len = strlen(text);
	int ret;

	memset(attrs, 0, sizeof(*attrs));
	attrs->map_bits = TRACING_MAP_BITS_DEFAULT;
	scnprintf(err->cmd, sizeof(err->cmd), "hist:%s", text);
	if (len > HIST_CMD_MAX - 5) {
		hist_err(err, -EINVAL, "Command too long", 0);
		return -EINVAL;
	}
	attrs->cmd = kmalloc(len + 6, GFP_KERNEL);
	if (!attrs->cmd)
		return -ENOMEM;
	memcpy(attrs->cmd, "hist:", 5);
	memcpy(attrs->cmd + 5, text, len + 1);
	attrs->cmd_len = len + 5;
	param = attrs->cmd + 5;

	ret = split_filter(param, &filter, err, attrs);
	if (ret)
		return ret;
	attrs->filter_str = filter;
	param = strim(param);
	hide_sym_offset(param);

	while ((str = param)) {
		char *colon = strchr(param, ':');

		if (colon) {
			*colon = '\0';
			param = colon + 1;
		} else {
			param = NULL;
		}
		if (!*str) {
			hist_err(err, -EINVAL, "Empty hist attribute", hist_errpos(attrs, str));
			return -EINVAL;
		}
		ret = parse_attr(str, attrs, err);
		if (ret)
			return ret;
	}
	if (!attrs->keys_str) {
		hist_err(err, -EINVAL, "Missing keys= (hist:keys=<field>[,...])", 0);
		return -EINVAL;
	}
	return 0;
}

void hist_attrs_free(struct hist_trigger_attrs *attrs)
{
	kfree(attrs->cmd);
	attrs->cmd = NULL;
}

/* name=expr[,name=expr...] in each assignment token. */
int hist_parse_var_defs(struct hist_trigger_attrs *attrs, struct hist_error *err)
{
	for (unsigned int i = 0; i < attrs->n_assignments; i++) {
		char *s = attrs->assignment_str[i];

		while (s) {
			char *def = s, *comma = strchr(s, ','), *eq;

			if (comma) {
				*comma = '\0';
				s = comma + 1;
			} else {
				s = NULL;
			}
			eq = strchr(def, '=');
			if (!eq || eq == def || !eq[1]) {
				hist_err_id(err, MALFORMED_ASSIGNMENT, hist_errpos(attrs, def));
				return -EINVAL;
			}
			*eq = '\0';
			if (attrs->n_var_defs == TRACING_MAP_VARS_MAX) {
				hist_err_id(err, TOO_MANY_VARS, hist_errpos(attrs, def));
				return -EINVAL;
			}
			for (unsigned int j = 0; j < attrs->n_var_defs; j++) {
				if (!strcmp(attrs->var_defs[j].name, def)) {
					hist_err_id(err, DUPLICATE_VAR, hist_errpos(attrs, def));
					return -EINVAL;
				}
			}
			attrs->var_defs[attrs->n_var_defs].name = def;
			attrs->var_defs[attrs->n_var_defs].expr = eq + 1;
			attrs->n_var_defs++;
		}
	}
	return 0;
}

/* --- handler.action clauses -------------------------------------------------------- */

void hist_action_free(struct action_data *data)
{
	kfree(data);
}

/* ".name(params)" after the handler. */
static int parse_action_call(char *str, struct action_data *data,
			     struct hist_trigger_attrs *attrs, struct hist_error *err)
{
	char *name, *params, *paren, *close;

	if (*str != '.' || !(paren = strchr(str, '(')) || paren == str + 1) {
		hist_err_id(err, ACTION_NOT_FOUND, hist_errpos(attrs, str));
		return -EINVAL;
	}
	name = str + 1;
	*paren = '\0';
	params = paren + 1;
	close = strrchr(params, ')');
	if (!close) {
		hist_err_id(err, NO_CLOSING_PAREN, hist_errpos(attrs, params));
		return -EINVAL;
	}
	if (close[1]) {
		hist_err(err, -EINVAL, "Unexpected text after action", hist_errpos(attrs, close + 1));
		return -EINVAL;
	}
	*close = '\0';
	data->action_name = name;

	if (!strcmp(name, "save"))
		data->action = ACTION_SAVE;
	else if (!strcmp(name, "snapshot"))
		data->action = ACTION_SNAPSHOT;
	else
		data->action = ACTION_TRACE;
	if (data->handler == HANDLER_ONMATCH && data->action != ACTION_TRACE) {
		hist_err_id(err, ACTION_MISMATCH, hist_errpos(attrs, name));
		return -EINVAL;
	}

	params = strim(params);
	if (data->action == ACTION_SNAPSHOT) {
		if (*params) {
			hist_err(err, -EINVAL, "snapshot() takes no params", hist_errpos(attrs, params));
			return -EINVAL;
		}
		return 0;
	}
	if (!*params) {
		if (data->action == ACTION_SAVE) {
			hist_err_id(err, NO_SAVE_PARAMS, hist_errpos(attrs, params));
			return -EINVAL;
		}
		if (!strcmp(name, "trace")) {
			hist_err_id(err, SYNTH_EVENT_NOT_FOUND, hist_errpos(attrs, params));
			return -EINVAL;
		}
	}
	while (params && *params) {
		char *param = params, *comma = strchr(params, ',');

		if (comma) {
			*comma = '\0';
			params = comma + 1;
		} else {
			params = NULL;
		}
		param = strim(param);
		if (!*param) {
			hist_err_id(err, PARAM_NOT_FOUND, hist_errpos(attrs, param));
			return -EINVAL;
		}
		if (strlen(param) < 2) {
			hist_err_id(err, INVALID_PARAM, hist_errpos(attrs, param));
			return -EINVAL;
		}
		if (data->action == ACTION_TRACE && !strcmp(name, "trace") && !data->synth_event_name) {
			data->use_trace_keyword = true;
			data->synth_event_name = param;
			continue;
		}
		if (data->n_params == SYNTH_FIELDS_MAX) {
			hist_err_id(err, TOO_MANY_PARAMS, hist_errpos(attrs, param));
			return -EINVAL;
		}
		data->params[data->n_params++] = param;
	}
	if (params) {	/* a trailing comma */
		hist_err_id(err, PARAM_NOT_FOUND, hist_errpos(attrs, params));
		return -EINVAL;
	}
	if (data->action == ACTION_TRACE && !data->synth_event_name)
		data->synth_event_name = name;
	return 0;
}

struct action_data *hist_parse_action(char *str, struct hist_trigger_attrs *attrs,
				      struct hist_error *err)
{
	struct action_data *data = kzalloc(sizeof(*data), GFP_KERNEL);
	const char *rest;
	char *arg, *close;

	if (!data)
		return ERR_PTR(-ENOMEM);
	if ((rest = has_prefix(str, "onmatch(")))
		data->handler = HANDLER_ONMATCH;
	else if ((rest = has_prefix(str, "onmax(")))
		data->handler = HANDLER_ONMAX;
	else
		rest = has_prefix(str, "onchange("), data->handler = HANDLER_ONCHANGE;

	arg = (char *)rest;
	close = strchr(arg, ')');
	if (!close) {
		hist_err_id(err, NO_CLOSING_PAREN, hist_errpos(attrs, str));
		goto fail;
	}
	*close = '\0';
	if (data->handler == HANDLER_ONMATCH) {
		char *dot = strchr(arg, '.');

		if (!dot || dot == arg) {
			hist_err_id(err, SUBSYS_NOT_FOUND, hist_errpos(attrs, arg));
			goto fail;
		}
		*dot = '\0';
		data->match_data.event_system = arg;
		data->match_data.event = dot + 1;
		if (!dot[1]) {
			hist_err_id(err, INVALID_SUBSYS_EVENT, hist_errpos(attrs, arg));
			goto fail;
		}
	} else {
		data->track_data.var_str = arg;
		if (!*arg) {
			hist_err_id(err, ONX_NOT_VAR, hist_errpos(attrs, str));
			goto fail;
		}
	}
	if (parse_action_call(close + 1, data, attrs, err))
		goto fail;
	return data;
fail:
	kfree(data);
	return ERR_PTR(-EINVAL);
}
