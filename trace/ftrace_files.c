/*
 * The function tracer's tracefs files. Top level: available_filter_functions
 * (every site, address order), available_filter_functions_addrs (with
 * addresses), enabled_functions (sites calling the trampoline now, with
 * how many ops want each) and touched_functions (every site that ever
 * called it). Every array: set_ftrace_filter and set_ftrace_notrace, whose
 * writes edit a copy of the set that takes effect when the file is closed,
 * as Linux's do; opening with O_TRUNC starts from an empty set. Function
 * commands (trace/ftrace_probe.c) and :mod: entries take effect at once,
 * and O_TRUNC leaves the commands alone.
 */
#include <kernel/types.h>
#include <kernel/string.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include <kernel/fs/tracefs.h>
#include <kernel/fs/seq_file.h>
#include <kernel/fs/fcntl.h>
#include <asm/page.h>
#include <trace/trace.h>
#include <trace/ftrace.h>
#include <trace/ftrace_set.h>
#include <trace/trace_functions.h>
#include <trace/trace_functions_graph.h>
#include <trace/trace_files.h>

static int available_filter_functions_show(struct seq_file *m, void *v)
{
	for (unsigned int i = 0; i < ftrace_nr_sites; i++)
		seq_printf(m, "%ps\n", (void *)ftrace_sites[i].ip);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(available_filter_functions);

static int available_filter_functions_addrs_show(struct seq_file *m, void *v)
{
	for (unsigned int i = 0; i < ftrace_nr_sites; i++)
		seq_printf(m, "%lx %ps\n", ftrace_sites[i].ip, (void *)ftrace_sites[i].ip);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(available_filter_functions_addrs);

/* The sites with one of flags, "name (refs)" as Linux's enabled_functions. */
static void show_sites(struct seq_file *m, unsigned int flags)
{
	ftrace_lock();
	for (unsigned int i = 0; i < ftrace_nr_sites; i++)
		if (ftrace_sites[i].flags & flags)
			seq_printf(m, "%ps (%u)\n", (void *)ftrace_sites[i].ip, ftrace_sites[i].refs);
	ftrace_unlock();
}

static int enabled_functions_show(struct seq_file *m, void *v)
{
	show_sites(m, FTRACE_FL_ENABLED);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(enabled_functions);

static int touched_functions_show(struct seq_file *m, void *v)
{
	show_sites(m, FTRACE_FL_TOUCHED);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(touched_functions);

/*
 * Linux's "SITES pages:P groups: G": its records sit in groups of pages
 * allocated as the sites are found; Spoor's are one table, one group.
 */
static int dyn_ftrace_total_info_show(struct seq_file *m, void *v)
{
	size_t bytes = (size_t)ftrace_nr_sites * sizeof(*ftrace_sites);

	seq_printf(m, "%u pages:%zu groups: %d\n", ftrace_nr_sites,
		   (bytes + PAGE_SIZE - 1) / PAGE_SIZE, ftrace_nr_sites ? 1 : 0);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dyn_ftrace_total_info);

/* Which file: bit 0 set for the notrace ones (they list and index as such). */
enum set_kind { SET_FTRACE_FILTER, SET_FTRACE_NOTRACE, SET_GRAPH_FUNCTION, SET_GRAPH_NOTRACE };

/*
 * An open set_ftrace_filter/notrace or set_graph_function/notrace: the set
 * being edited, applied at release.
 */
struct ftrace_set_file {
	struct trace_ftrace *f;
	enum set_kind kind;
	bool no_trace;			/* kind & 1 */
	bool graph;			/* set_graph_*: no commands, no :mod: */
	struct ftrace_set work;		/* only when open for writing */
	char *text;			/* what reads show */
	size_t len;
};

static struct ftrace_set *live_set(struct ftrace_set_file *sf)
{
	switch (sf->kind) {
	case SET_FTRACE_NOTRACE:
		return &sf->f->ops.notrace_set;
	case SET_GRAPH_FUNCTION:
		return &fgraph_function_set;
	case SET_GRAPH_NOTRACE:
		return &fgraph_notrace_set;
	case SET_FTRACE_FILTER:
		break;
	}
	return &sf->f->ops.filter;
}

/*
 * The listing, as Linux's: the functions of the set (or, when the set and
 * its :mod: entries are empty, a line saying so), the :mod: entries, then
 * set_ftrace_filter's function commands. Caller holds ftrace_lock.
 */
static char *set_text(struct ftrace_set_file *sf, size_t *len)
{
	const struct ftrace_set *set = live_set(sf);
	struct ftrace_mod *mods = sf->graph ? NULL : sf->f->mods[sf->no_trace];
	bool commands = sf->kind == SET_FTRACE_FILTER;
	size_t size = 64, n = 0;
	char *buf;

	for (unsigned int i = 0; i < ftrace_nr_sites; i++)
		size += ftrace_set_test(set, i) ? FTRACE_NAME_MAX + 1 : 0;
	for (struct ftrace_mod *m = mods; m; m = m->next)
		size += strlen(m->text) + 1;
	if (commands)
		size += ftrace_probes_print(sf->f, NULL, 0);
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return NULL;
	if (!set->count && !mods)
		n = (size_t)snprintf(buf, size, "%s\n", sf->no_trace ? "#### no functions disabled ####"
								: "#### all functions enabled ####");
	for (unsigned int i = 0; i < ftrace_nr_sites; i++)
		if (ftrace_set_test(set, i))
			n += (size_t)snprintf(buf + n, size - n, "%ps\n", (void *)ftrace_sites[i].ip);
	for (struct ftrace_mod *m = mods; m; m = m->next)
		n += (size_t)snprintf(buf + n, size - n, "%s\n", m->text);
	if (commands)
		n += ftrace_probes_print(sf->f, buf + n, size - n);
	*len = n;
	return buf;
}

/*
 * "FUNC:mod:MODULE": no module is ever loaded, so the entry only waits,
 * listed, as Linux keeps one for a module not loaded yet. With '!' the
 * entries of MODULE whose FUNC the glob matches go.
 */
static int mod_entry(struct ftrace_set_file *sf, const char *token, bool remove)
{
	struct ftrace_mod **list = &sf->f->mods[sf->no_trace], *m;
	const char *module = strstr(token, ":mod:") + 5;
	size_t glob_len = (size_t)(module - 5 - token);

	ftrace_lock();
	if (remove) {
		char glob[FTRACE_NAME_MAX];

		scnprintf(glob, sizeof(glob), "%.*s", (int)glob_len, token);
		while ((m = *list)) {
			const char *mod = strstr(m->text, ":mod:") + 5;
			char func[FTRACE_NAME_MAX];

			scnprintf(func, sizeof(func), "%.*s", (int)(mod - 5 - m->text), m->text);
			if (!strcmp(mod, module) && trace_glob_match(glob, func)) {
				*list = m->next;
				kfree(m);
			} else {
				list = &m->next;
			}
		}
	} else if ((m = kmalloc(sizeof(*m) + strlen(token) + 1, GFP_KERNEL))) {
		strcpy(m->text, token);
		m->next = *list;
		*list = m;
	}
	ftrace_unlock();
	return remove || m ? 0 : -ENOMEM;
}

/*
 * One token of a write: a glob, index or :mod: entry edits the copy of
 * the set; "GLOB:COMMAND[:PARAM]" attaches a function command at once
 * (set_ftrace_filter only).
 */
static int set_token(struct ftrace_set_file *sf, char *token)
{
	bool remove = token[0] == '!';
	char *cmd = strchr(token, ':'), *param;

	if (!cmd)
		return ftrace_set_apply(&sf->work, ftrace_nr_sites, ftrace_site_name, NULL, token);
	if (sf->graph)
		return -EINVAL;
	if (strstr(token, ":mod:"))
		return mod_entry(sf, token + remove, remove);
	if (sf->no_trace)
		return -EINVAL;
	*cmd++ = '\0';
	param = strchr(cmd, ':');
	if (param)
		*param++ = '\0';
	return ftrace_probe_command(sf->f, token + remove, cmd, param, remove);
}

static int set_file_open(struct inode *inode, struct file *file, enum set_kind kind)
{
	struct trace_ftrace *f = inode->i_private;
	struct ftrace_set_file *sf;
	int ret = trace_array_get_file(file, (struct trace_array *const *)&f->tr);

	if (ret)
		return ret;
	ret = -ENOMEM;
	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		goto put;
	sf->f = f;
	sf->kind = kind;
	sf->no_trace = kind & 1;
	sf->graph = kind >= SET_GRAPH_FUNCTION;
	ftrace_lock();
	if (file->f_mode & FMODE_WRITE) {
		if (ftrace_set_alloc(&sf->work, ftrace_nr_sites))
			goto unlock;
		if (file->f_flags & O_TRUNC) {
			if (!sf->graph)
				ftrace_mods_free(&f->mods[sf->no_trace]);
		} else {
			memcpy(sf->work.bits, live_set(sf)->bits,
			       DIV_ROUND_UP(ftrace_nr_sites, FTRACE_SET_BITS) * sizeof(unsigned long));
			sf->work.count = live_set(sf)->count;
		}
	}
	if (file->f_mode & FMODE_READ) {
		sf->text = set_text(sf, &sf->len);
		if (!sf->text)
			goto unlock;
	}
	ftrace_unlock();
	file->private_data = sf;
	return 0;
unlock:
	ftrace_unlock();
	ftrace_set_free(&sf->work);
	kfree(sf);
put:
	trace_array_put(f->tr);
	return ret;
}

static int set_ftrace_filter_open(struct inode *inode, struct file *file)
{
	return set_file_open(inode, file, SET_FTRACE_FILTER);
}

static int set_ftrace_notrace_open(struct inode *inode, struct file *file)
{
	return set_file_open(inode, file, SET_FTRACE_NOTRACE);
}

static int set_graph_function_open(struct inode *inode, struct file *file)
{
	return set_file_open(inode, file, SET_GRAPH_FUNCTION);
}

static int set_graph_notrace_open(struct inode *inode, struct file *file)
{
	return set_file_open(inode, file, SET_GRAPH_NOTRACE);
}

static ssize_t set_file_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct ftrace_set_file *sf = file->private_data;

	return simple_read_from_buffer(buf, count, pos, sf->text, sf->len);
}

/* Blank-separated tokens, each applied to the copy; the first failure is the write's. */
static ssize_t set_file_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct ftrace_set_file *sf = file->private_data;
	char token[FTRACE_NAME_MAX + 16];
	size_t i = 0;
	int ret = 0;

	while (i < count) {
		size_t n = 0;

		while (i < count && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'))
			i++;
		while (i < count && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n') {
			if (n + 1 >= sizeof(token))
				return -EINVAL;
			token[n++] = buf[i++];
		}
		if (!n)
			break;
		token[n] = '\0';
		ret = set_token(sf, token);
		if (ret < 0)
			return ret;
	}
	*pos += (loff_t)count;
	return (ssize_t)count;
}

static int set_file_release(struct inode *inode, struct file *file)
{
	struct ftrace_set_file *sf = file->private_data;

	if (file->f_mode & FMODE_WRITE) {
		struct ftrace_set *live = live_set(sf);

		ftrace_lock();
		memcpy(live->bits, sf->work.bits,
		       DIV_ROUND_UP(ftrace_nr_sites, FTRACE_SET_BITS) * sizeof(unsigned long));
		live->count = sf->work.count;
		/* The graph sets are read at every call: nothing to patch. */
		if (!sf->graph && sf->f->ops.registered)
			ftrace_ops_update();
		ftrace_unlock();
		ftrace_set_free(&sf->work);
	}
	trace_array_put(sf->f->tr);
	kfree(sf->text);
	kfree(sf);
	return 0;
}

static const struct file_operations set_ftrace_filter_fops = {
	.open = set_ftrace_filter_open,
	.read = set_file_read,
	.write = set_file_write,
	.release = set_file_release,
};

static const struct file_operations set_ftrace_notrace_fops = {
	.open = set_ftrace_notrace_open,
	.read = set_file_read,
	.write = set_file_write,
	.release = set_file_release,
};

static const struct file_operations set_graph_function_fops = {
	.open = set_graph_function_open,
	.read = set_file_read,
	.write = set_file_write,
	.release = set_file_release,
};

static const struct file_operations set_graph_notrace_fops = {
	.open = set_graph_notrace_open,
	.read = set_file_read,
	.write = set_file_write,
	.release = set_file_release,
};

static ssize_t max_graph_depth_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	char text[16];
	int n = snprintf(text, sizeof(text), "%u\n", READ_ONCE(fgraph_max_depth));

	return simple_read_from_buffer(buf, count, pos, text, (size_t)n);
}

static ssize_t max_graph_depth_write(struct file *file, const char *buf, size_t count,
				     loff_t *pos)
{
	unsigned long val;
	int ret = trace_parse_ulong(buf, count, &val);

	if (ret)
		return ret;
	if (val > (unsigned int)-1)
		return -EINVAL;
	WRITE_ONCE(fgraph_max_depth, (unsigned int)val);
	return (ssize_t)count;
}

static const struct file_operations max_graph_depth_fops = {
	.read = max_graph_depth_read,
	.write = max_graph_depth_write,
};

static int create(const char *name, umode_t mode, struct dentry *dir, void *data,
		  const struct file_operations *fops)
{
	struct dentry *d = tracefs_create_file(name, mode, dir, data, fops);

	return IS_ERR(d) ? (int)PTR_ERR(d) : 0;
}

int trace_create_ftrace_files(struct trace_array *tr, struct dentry *dir)
{
	int ret = trace_ftrace_alloc(tr);

	if (ret || !tr->ftrace)
		return ret;
	ret = create("set_ftrace_filter", TRACE_MODE_WRITE, dir, tr->ftrace,
		     &set_ftrace_filter_fops);
	if (!ret)
		ret = create("set_ftrace_notrace", TRACE_MODE_WRITE, dir, tr->ftrace,
			     &set_ftrace_notrace_fops);
	if (ret || tr->name)
		return ret;
	ret = create("available_filter_functions", TRACE_MODE_READ, dir, NULL,
		     &available_filter_functions_fops);
	if (!ret)
		ret = create("available_filter_functions_addrs", TRACE_MODE_READ, dir, NULL,
			     &available_filter_functions_addrs_fops);
	if (!ret)
		ret = create("enabled_functions", TRACE_MODE_READ, dir, NULL,
			     &enabled_functions_fops);
	if (!ret)
		ret = create("touched_functions", TRACE_MODE_READ, dir, NULL,
			     &touched_functions_fops);
	if (!ret)
		ret = create("dyn_ftrace_total_info", TRACE_MODE_READ, dir, NULL,
			     &dyn_ftrace_total_info_fops);
	if (!ret)
		ret = create("set_graph_function", TRACE_MODE_WRITE, dir, tr->ftrace,
			     &set_graph_function_fops);
	if (!ret)
		ret = create("set_graph_notrace", TRACE_MODE_WRITE, dir, tr->ftrace,
			     &set_graph_notrace_fops);
	if (!ret)
		ret = create("max_graph_depth", TRACE_MODE_WRITE, dir, NULL, &max_graph_depth_fops);
	return ret;
}
