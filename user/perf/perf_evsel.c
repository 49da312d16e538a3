/*
 * Event names as perf's -e takes them: a tracepoint as SYSTEM:NAME (its
 * id from tracefs), or one of the software counters Spoor has, by perf's
 * names and aliases.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf.h"
#include "perf_data.h"

static int tracepoint_id(const char *sys, const char *name)
{
	char path[512];
	FILE *f;
	int id = -1;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", sys, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

static int parse_one(const char *s, struct evsel *ev)
{
	const char *colon = strchr(s, ':');

	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	if (colon) {
		char sys[128];
		int id;

		if ((size_t)(colon - s) >= sizeof(sys) || strlen(s) >= sizeof(ev->name))
			goto unknown;
		memcpy(sys, s, (size_t)(colon - s));
		sys[colon - s] = 0;
		id = tracepoint_id(sys, colon + 1);
		if (id < 0)
			goto unknown;
		ev->attr.type = PERF_TYPE_TRACEPOINT;
		ev->attr.config = (uint64_t)id;
		snprintf(ev->name, sizeof(ev->name), "%s", s);
		return 0;
	}
	for (unsigned int i = 0; i < perf_sw_names_nr; i++) {
		const struct perf_sw_name *sw = &perf_sw_names[i];

		if (strcmp(s, sw->name) && (!sw->alias || strcmp(s, sw->alias)))
			continue;
		ev->attr.type = PERF_TYPE_SOFTWARE;
		ev->attr.config = sw->config;
		/* perf's default: the host only, so its name has no modifiers */
		ev->attr.flags |= PERF_ATTR_FLAG_EXCLUDE_GUEST;
		snprintf(ev->name, sizeof(ev->name), "%s", sw->name);
		return 0;
	}
unknown:
	fprintf(stderr, "event syntax error: '%s': unknown event (tracepoints are SYSTEM:NAME, "
		"as in " TRACEFS "/available_events)\n", s);
	return -1;
}

int evsel_parse_list(const char *list, struct evsel **out, unsigned int *nr)
{
	char *copy = strdup(list), *save = NULL;
	int ret = 0;

	if (!copy)
		return -1;
	for (char *tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		struct evsel *n = realloc(*out, (*nr + 1) * sizeof(**out));

		if (!n) {
			ret = -1;
			break;
		}
		*out = n;
		ret = parse_one(tok, &n[*nr]);
		*nr += !ret;
	}
	free(copy);
	return ret;
}
